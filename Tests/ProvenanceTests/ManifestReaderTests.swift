import Foundation
import Platform
@testable import Provenance
import Testing

/// The reader on manifests made by hand: a good one, and hostile ones (cut short, lying lengths,
/// nesting, malformed CBOR and COSE, hard bindings that leave out what is not theirs, a store of
/// 10 000 segments). None may crash, hang or say valid.
@Suite struct ManifestReaderTests {
    let keys: InstallationKeys
    let trust: TrustAnchors

    init() throws {
        keys = try KeysFixture.installation()
        trust = try TrustAnchors(files: [keys.folder + "/ca.pem"])
    }

    func verify(_ file: [UInt8], trust: TrustAnchors? = nil) -> Verification {
        ManifestReader.verify(file: file, trust: trust ?? self.trust, now: KeysFixture.now)
    }

    func manifest() -> TestManifest { TestManifest(identity: keys.identity) }

    @Test func goodManifestIsValidAndTrusted() throws {
        let result = verify(try manifest().jpeg())
        #expect(result.outcome == .valid, "\(result.problem ?? "")")
        #expect(result.signatureValid && result.bindingHolds && result.trusted && result.hasCredentials)
        #expect(result.signer?.fingerprint == keys.identity.certificate.fingerprint)
        #expect(result.generator == "stampcam/test")
        guard case .object(let stamp)? = result.stamp else { Issue.record("no stamp"); return }
        #expect(stamp["user"] == .string("Li Wei"))
    }

    @Test func withoutItsCAItIsNotTrusted() throws {
        let result = verify(try manifest().jpeg(), trust: TrustAnchors())
        #expect(result.outcome == .untrusted)
        #expect(result.signatureValid && result.bindingHolds && !result.trusted)
        let stranger = try KeysFixture.installation()
        #expect(verify(try manifest().jpeg(), trust: try TrustAnchors(files: [stranger.folder + "/ca.pem"])).outcome == .untrusted)
    }

    @Test func segmentsOfAnySizeReassemble() throws {
        var small = manifest()
        small.segmentSize = 100
        #expect(verify(try small.jpeg()).outcome == .valid)
        // Out of order in the file, in order by their sequence numbers.
        let file = try small.jpeg()
        let segments = Self.app11Segments(file)
        var swapped = Array(file[0..<2])
        swapped += file[segments[1]] + file[segments[0]] + segments.dropFirst(2).flatMap { file[$0] }
        swapped += file[segments.last!.upperBound...]
        #expect(verify(swapped).outcome == .valid)
    }

    @Test func noManifestIsNoCredentials() {
        let plain: [UInt8] = [0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 1, 2, 0xff, 0xd9]
        let result = verify(plain)
        #expect(result.outcome == .noCredentials && !result.hasCredentials)
        #expect(verify([]).outcome == .noCredentials)
        #expect(verify([0xff, 0xd8]).outcome == .noCredentials)
    }

    @Test func onePictureByteChangedIsChanged() throws {
        var file = try manifest().jpeg()
        file[file.count - 20] ^= 1
        let result = verify(file)
        #expect(result.outcome == .changed && result.signatureValid && !result.bindingHolds)
    }

    @Test func signatureBytesAlteredIsInvalid() throws {
        var file = try manifest().jpeg()
        let segments = Self.app11Segments(file)
        // The signature's last bytes end the manifest store (the COSE array's last item).
        file[segments.last!.upperBound - 5] ^= 1
        let result = verify(file)
        #expect(result.outcome == .invalid && !result.signatureValid)
    }

    @Test func changedAssertionIsChanged() throws {
        var bent = manifest()
        bent.bend = { store in
            var store = store
            let at = Self.find(Array("Li Wei".utf8), in: store)!
            store[at] = UInt8(ascii: "X")
            return store
        }
        let result = verify(try bent.jpeg())
        #expect(result.outcome == .changed && result.stamp == nil)
    }

    @Test func bindingsThatClaimOtherBytesNeverHold() throws {
        let length = try manifest().jpeg().count
        for exclusions in [[(2, length - 2)],               // all but SOI, picture included
                           [(2, 10), (5, 10)],              // overlapping
                           [(20, 10), (2, 10)],             // out of order
                           [(length + 100, 10)],            // past the end
                           [(2, Int(Int32.max))],           // longer than the file
                           [(length - 20, 10)]] {           // inside the picture
            var bent = manifest()
            bent.exclusions = exclusions.map { (start: $0.0, length: $0.1) }
            let result = verify(try bent.jpeg())
            #expect(result.outcome == .changed && !result.bindingHolds, "\(exclusions)")
        }
        // Its own segments and some of the picture, hashed honestly: the picture could be changed there.
        var bent = manifest()
        bent.alsoExcluding = [(start: 20, length: 100)]
        let result = verify(try bent.jpeg())
        #expect(result.outcome == .changed && !result.bindingHolds)
        #expect(result.problem?.contains("not its manifest's") == true, "\(result.problem ?? "")")
    }

    @Test func truncatedFilesAreNeverValid() throws {
        let file = try manifest().jpeg()
        let segments = Self.app11Segments(file)
        for cut in stride(from: 2, to: segments.last!.upperBound + 20, by: 37) {
            let result = verify(Array(file.prefix(cut)))
            #expect(result.outcome != .valid, "cut at \(cut)")
        }
    }

    @Test func lyingBoxLengthsAreDamage() throws {
        for size in [0xffff_fff0, 1, 7, 0] {
            var bent = manifest()
            bent.bend = { store in
                var store = store
                // The claim's superbox header: its length.
                let at = Self.find(Array("c2pa.claim".utf8), in: store)! - 17 - 8 - 8
                store.replaceSubrange(at..<at + 4, with: TestManifest.be32(size))
                return store
            }
            let result = verify(try bent.jpeg())
            #expect(result.outcome == .invalid, "size \(size): \(result.problem ?? "")")
        }
    }

    @Test func deeplyNestedBoxesAreDamage() {
        var store = TestManifest.box("cbor", [1, 2, 3])
        for _ in 0..<200 { store = TestManifest.superbox("c2pa", label: "c2pa", [store]) }
        let file = [0xff, 0xd8] + TestManifest.app11(store, size: 65_000) + [0xff, 0xd9]
        let result = verify(file)
        #expect(result.outcome == .invalid)
        #expect(result.problem?.contains("nested") == true)
    }

    @Test func malformedCBORIsRejectedBeforeLibcbor() {
        let hostile: [[UInt8]] = [
            [0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],   // an array of 2^64-1 items
            [0x9a, 0x10, 0x00, 0x00, 0x00, 0x01],                     // 2^28 items, one there
            [0xbb, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],   // a map whose item count overflows
            [0x5a, 0xff, 0xff, 0xff, 0xf0, 0x00],                     // a byte string longer than the bytes
            Array(repeating: 0x81, count: 100_000) + [0x00],          // nested 100 000 deep
            Array(repeating: 0x9f, count: 100_000),                   // indefinite arrays never closed
            [0xff], [0x1c], [0x5f, 0x01, 0xff],                       // a break, a reserved value, a bad chunk
            [0x01, 0x02],                                             // bytes after the item
            [],
        ]
        for bytes in hostile { #expect(CBORDecoder.decode(bytes) == nil, "\(bytes.prefix(8))") }
        #expect(CBORDecoder.decode([0x82, 0x01, 0x63, 0x61, 0x62, 0x63])?.array?.count == 2)
        #expect(CBORDecoder.decode([0x5f, 0x41, 0x01, 0x42, 0x02, 0x03, 0xff])?.bytes == [1, 2, 3])
    }

    @Test func malformedCOSEIsInvalid() throws {
        for replacement: [UInt8] in [[0xd2, 0x80], [0xd2, 0x84, 0x01, 0x02, 0x03, 0x04], [0xa0], [0x9b, 0xff, 0xff]] {
            var bent = manifest()
            bent.bend = { store in
                // The signature's cbor box is the store's last box: swap its payload.
                let label = Self.find(Array("c2pa.signature\0".utf8), in: store)!
                let box = label + "c2pa.signature\0".utf8.count
                let rebuilt = TestManifest.box("cbor", replacement)
                var prefix = Array(store[..<box])
                // Shrink the three enclosing superboxes' lengths by what the payload lost.
                let delta = rebuilt.count - (store.count - box)
                for header in [0, Self.find(Array("urn:uuid".utf8), in: store)! - 17 - 8 - 8, label - 17 - 8 - 8] {
                    let size = Int(JUMBFSuperbox.bigEndian32(prefix, header)) + delta
                    prefix.replaceSubrange(header..<header + 4, with: TestManifest.be32(size))
                }
                return prefix + rebuilt
            }
            let result = verify(try bent.jpeg())
            #expect(result.outcome == .invalid && !result.signatureValid, "\(replacement): \(result.problem ?? "")")
        }
    }

    @Test func tenThousandTinySegmentsEndQuickly() throws {
        var tiny = manifest()
        tiny.segmentSize = 1
        // Each segment carries one byte after the repeated header.
        let file = try tiny.jpeg()
        #expect(Self.app11Segments(file).count > 1000)
        #expect(verify(file).outcome == .valid)
        // 10 000 segments all numbered 1.
        var store: [UInt8] = []
        for _ in 0..<10_000 { store += [0xff, 0xeb, 0x00, 0x12, 0x4a, 0x50, 0x00, 0x01, 0, 0, 0, 1] + TestManifest.be32(8) + Array("jumb".utf8) }
        let result = verify([0xff, 0xd8] + store + [0xff, 0xd9])
        #expect(result.outcome == .invalid)
    }

    @Test func assertionURLs() {
        let manifest = "urn:uuid:1"
        #expect(ManifestReader.assertionLabel("self#jumbf=c2pa.assertions/c2pa.hash.data", manifest: manifest) == "c2pa.hash.data")
        #expect(ManifestReader.assertionLabel("self#jumbf=/c2pa/urn:uuid:1/c2pa.assertions/x", manifest: manifest) == "x")
        #expect(ManifestReader.assertionLabel("self#jumbf=/c2pa/urn:uuid:2/c2pa.assertions/x", manifest: manifest) == nil)
        #expect(ManifestReader.assertionLabel("self#jumbf=c2pa.assertions/../c2pa.claim", manifest: manifest) == nil)
        #expect(ManifestReader.assertionLabel("https://example.com/x", manifest: manifest) == nil)
    }

    /// The byte ranges of the APP11 segments, marker to end.
    static func app11Segments(_ file: [UInt8]) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var index = 2
        while index + 4 <= file.count, file[index] == 0xff, file[index + 1] == 0xeb {
            let end = index + 2 + (Int(file[index + 2]) << 8 | Int(file[index + 3]))
            found.append(index..<end)
            index = end
        }
        return found
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...haystack.count - needle.count).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}

/// The stamp's code against the one its fields and picture hash give.
@Suite struct StampedCodeTests {
    func verified(stamp: TestManifest.CBOR) throws -> Verification {
        let keys = try KeysFixture.installation()
        var manifest = TestManifest(identity: keys.identity)
        manifest.stamp = stamp
        return ManifestReader.verify(file: try manifest.jpeg(), trust: try TrustAnchors(files: [keys.folder + "/ca.pem"]), now: KeysFixture.now)
    }

    static let stamp = TestManifest.CBOR.map([("code", .text("K7QM-4XPA")), ("pixelsSHA256", .text("ab12")),
                                              ("fields", .map([("user", .text("Li Wei")), ("project", .text("Bridge 7"))]))])
    static func derive(_ pixels: String, _ fields: [String: String]) -> String {
        pixels == "ab12" && fields == ["user": "Li Wei", "project": "Bridge 7"] ? "K7QM-4XPA" : "OTHER"
    }

    @Test func matchingCodeStaysValid() throws {
        var result = try verified(stamp: Self.stamp)
        result.checkStampedCode(derive: Self.derive)
        #expect(result.codeMatches == true && result.outcome == .valid)
    }

    @Test func otherCodeIsChanged() throws {
        var result = try verified(stamp: Self.stamp)
        result.checkStampedCode { _, _ in "ZZZZ-ZZZZ" }
        #expect(result.codeMatches == false && result.outcome == .changed)
    }

    @Test func withoutACodeNothingIsCompared() throws {
        var result = try verified(stamp: .map([("user", .text("Li Wei"))]))
        result.checkStampedCode(derive: Self.derive)
        #expect(result.codeMatches == nil && result.outcome == .valid)
    }
}
