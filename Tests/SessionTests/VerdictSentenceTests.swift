@testable import Provenance
import Session
import Templates
import Testing
import Values

/// The one plain sentence a verdict opens with: for each outcome the words a client reads, who
/// signed and when, and never "unchanged" for a file that is not as it was signed.
@Suite struct VerdictSentenceTests {
    static let signer = "Acme Site Services"
    static let time = Timestamp(iso8601: "2026-12-04T10:41:07+02:00")!

    /// A verification as the reader leaves it: a signed photo whose checks all held, then what `change` does.
    static func verification(organization: String? = signer, _ change: (inout Verification) -> Void = { _ in }) -> Verification {
        var result = Verification()
        result.hasCredentials = true
        result.outcome = .valid
        result.signatureValid = true
        result.bindingHolds = true
        result.trusted = true
        result.signedAt = Verification.SigningTime(time: time, attested: false)
        result.certificates = [CertificateInfo(subject: "CN=device,O=\(organization ?? "")", issuer: "CN=CA", fingerprint: "AB", notBefore: "",
                                               notAfter: "", organization: organization)]
        change(&result)
        return result
    }

    static func sentence(_ verification: Verification) -> String { VerdictSentence.text(verification, words: .english) }

    @Test("a photo unchanged since it was signed names the organisation, the day, the time and its zone")
    func unchanged() {
        #expect(Self.sentence(Self.verification()) == "Unchanged since Acme Site Services' camera signed it on 4 Dec 2026 at 10:41 (+02:00).")
        #expect(Self.sentence(Self.verification(organization: "Bauer GmbH")) == "Unchanged since Bauer GmbH's camera signed it on 4 Dec 2026 at 10:41 (+02:00).")
        #expect(Self.sentence(Self.verification(organization: nil)) == "Unchanged since it was signed on 4 Dec 2026 at 10:41 (+02:00).")
        #expect(Self.sentence(Self.verification { $0.signedAt = nil }) == "Unchanged since Acme Site Services' camera signed it.")
    }

    @Test("changed, damaged, cut, unsigned, a broken signature, a certificate that may not sign: each its own sentence, none says unchanged")
    func notUnchanged() {
        let cases: [(Verification, String)] = [
            (Self.verification { $0.bindingHolds = false; $0.fail(.changed, "hash") }, "Changed after it was signed"),
            (Self.verification { $0.damage = .malformed("x"); $0.fail(.invalid, "x") }, "Its credentials are damaged"),
            (Self.verification { $0.damage = .cut; $0.fail(.invalid, "x") }, "The file is cut short"),
            (Verification(), "It carries no credentials"),
            (Self.verification { $0.signatureValid = false; $0.fail(.invalid, "x") }, "Its signature does not hold"),
            (Self.verification { $0.fail(.invalid, "profile") }, "Signed with a certificate that may not sign photos"),
            (Self.verification { $0.parent = Verification.Parent(outcome: .changed, problem: "x"); $0.fail(.changed, "x") },
             "Unchanged since it was signed, but the photo it was made from had been changed"),
        ]
        var seen = Set<String>()
        for (verification, start) in cases {
            let text = Self.sentence(verification)
            #expect(text.hasPrefix(start), "\(text)")
            #expect(!text.hasPrefix("Unchanged since Acme"), "\(text)")
            seen.insert(text)
        }
        #expect(seen.count == cases.count)
    }

    @Test("an untrusted signer's name is given as what the certificate says, not as a fact; an expired one says so")
    func trust() {
        let untrusted = Self.sentence(Self.verification { $0.trusted = false; $0.fail(.untrusted, "x") })
        #expect(untrusted == "Unchanged since it was signed on 4 Dec 2026 at 10:41 (+02:00), in the name of Acme Site Services; "
            + "no certificate you trust vouches for that name.")
        let expired = Self.sentence(Self.verification { $0.fail(.expired, "x") })
        #expect(expired.hasPrefix("Unchanged since Acme Site Services' camera signed it") && expired.hasSuffix("not valid today."))
    }

    @Test("a file that is not the photo logged with the code asked for says so, whatever its own signature says")
    func replaced() {
        var other = Self.verification { $0.stamp = .object(["code": .string("9P4X-RT7M-K3")]) }
        other.checkLogged(code: "K7MN-4XRT-9P")
        #expect(other.outcome == .changed && other.isLoggedPhoto == false)
        #expect(Self.sentence(other) == "This is not the photo logged with the code K7MN-4XRT-9P: it carries the code 9P4X-RT7M-K3.")
        var same = Self.verification { $0.stamp = .object(["code": .string("K7MN-4XRT-9P")]) }
        same.checkLogged(code: "K7MN-4XRT-9P")
        #expect(same.outcome == .valid && same.isLoggedPhoto == true)
    }
}
