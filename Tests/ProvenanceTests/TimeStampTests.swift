@testable import Provenance
import Synchronization
import Testing

/// The time-stamp's place in the COSE signature: the unprotected header's `sigTst2`, padded to the
/// size reserved before signing.
@Suite struct TimeStampTests {
    @Test func paddingFillsEveryRoomExactly() throws {
        let protected = try COSESign1.protectedHeader(chain: [[UInt8](repeating: 7, count: 300)])
        let signature = [UInt8](repeating: 1, count: 64)
        let token = [UInt8](repeating: 9, count: 1500)
        let bare = try #require(try COSESign1.message(protected: protected, signature: signature, token: token))
        // Every size from a few bytes over the bare message to well past the head-size boundaries.
        for extra in Array(5...400) + Array(65_500...65_560) {
            let message = try #require(try COSESign1.message(protected: protected, signature: signature, token: token, length: bare.count + extra),
                                       "extra \(extra)")
            #expect(message.count == bare.count + extra)
            let decoded = try #require(CBORValue(decoding: message))
            guard case .tagged(18, .array(let parts)) = decoded else { Issue.record("not a COSE_Sign1"); return }
            #expect(parts[1][COSESign1.timeStampLabel]?["tstTokens"]?.array?.first?["val"]?.bytes == token)
            #expect(parts[3].bytes == signature)
        }
        // Too little room: nothing fits.
        #expect(try COSESign1.message(protected: protected, signature: signature, token: token, length: bare.count - 1) == nil)
        #expect(try COSESign1.message(protected: protected, signature: signature, token: token, length: bare.count) == bare)
    }

    @Test func whatIsStampedIsTheCountersignatureOfTheSignature() throws {
        let protected = try COSESign1.protectedHeader(chain: [[1, 2, 3]])
        let stamped = try COSESign1.timeStamped(protected: protected, signature: [0xAA, 0xBB])
        let decoded = try #require(CBORValue(decoding: stamped))
        #expect(decoded == .array([.text("CounterSignature"), .bytes(protected), .bytes([]), .bytes([0x42, 0xAA, 0xBB])]))
    }

    @Test func aBadAddressIsSaidSo() {
        #expect(TimeStampAuthority.problem(with: "http://timestamp.example.com/tsa") == nil)
        #expect(TimeStampAuthority.problem(with: "https://tsa.example.com")?.contains("http://") == true)
        #expect(TimeStampAuthority.problem(with: "ftp://x") != nil && TimeStampAuthority.problem(with: "http://a b") != nil)
    }

    @Test func aTSAThatIsDownRestsAfterOneTry() {
        // A port nothing listens on: connection refused, retried by OpenSSL until the timeout.
        let now = Mutex(0.0)
        let authority = TimeStampAuthority(url: "http://127.0.0.1:9/tsa", timeout: 1, restSeconds: 60, clock: { now.withLock { $0 } })
        guard case .failure(.unreachable) = authority.token(for: [1, 2, 3]) else { Issue.record("expected unreachable"); return }
        now.withLock { $0 = 30 }
        guard case .failure(.unreachable(let reason)) = authority.token(for: [1]) else { Issue.record("expected rest"); return }
        #expect(reason.contains("a moment ago"))
    }
}
