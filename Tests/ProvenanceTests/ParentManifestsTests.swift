@testable import Provenance
import Testing

/// A photo that already carries credentials, signed again: its manifests are kept before ours and our
/// parent ingredient points at its active one; a store that cannot be kept is refused, never copied.
@Suite struct ParentManifestsTests {
    let keys: InstallationKeys
    let trust: TrustAnchors

    init() throws {
        keys = try KeysFixture.installation()
        trust = try TrustAnchors(files: [keys.folder + "/ca.pem"])
    }

    /// `jpeg` signed by ManifestSigner as opened from a file carrying `manifests`.
    func signed(_ jpeg: [UInt8], manifests: ParentManifests?) throws -> [UInt8] {
        let ingredient = Credentials.Ingredient(title: "source.jpg", sha256: "00", manifests: manifests)
        let credentials = Credentials(generator: "stampcam", version: "test", origin: .opened(ingredient), edit: "stamped", assertions: [])
        return try ManifestSigner(identity: keys.identity).sign(jpeg, credentials: credentials)
    }

    var plain: [UInt8] { [0xff, 0xd8] + TestManifest(identity: keys.identity).picture }

    @Test func signedSourceBecomesTheParent() throws {
        let source = try TestManifest(identity: keys.identity).jpeg()
        let parent = try #require(try ParentManifests.read(source))
        let photo = try signed(plain, manifests: parent)
        let result = ManifestReader.verify(file: photo, trust: trust, now: KeysFixture.now)
        #expect(result.outcome == .valid, "\(result.problem ?? "")")
        #expect(result.parentHasCredentials)
        // The store holds the source's manifest byte for byte, then ours.
        let again = try #require(try ParentManifests.read(photo))
        #expect(again.boxes.count == 2 && again.boxes[0] == parent.boxes[0])
        #expect(again.activeLabel != parent.activeLabel)
    }

    @Test func withoutCredentialsThereIsNoParent() throws {
        #expect(try ParentManifests.read(plain) == nil)
        let result = ManifestReader.verify(file: try signed(plain, manifests: nil), trust: trust, now: KeysFixture.now)
        #expect(result.outcome == .valid && !result.parentHasCredentials)
    }

    @Test func damagedOrOddStoresAreNotKept() throws {
        var lying = TestManifest(identity: keys.identity)
        lying.bend = { store in
            var store = store
            store.replaceSubrange(0..<4, with: TestManifest.be32(store.count + 1))
            return store
        }
        var nested = TestManifest(identity: keys.identity)
        // The store's manifest wrapped in a box that is no manifest.
        nested.bend = { store in TestManifest.superbox("c2pa", label: "c2pa", [TestManifest.superbox("junk", label: "x", [Array(store.dropFirst(8 + 30))])]) }
        var slash = TestManifest(identity: keys.identity)
        slash.bend = { store in
            let label = Array("urn:uuid:".utf8)
            guard let at = ManifestReaderTests.find(label, in: store) else { return store }
            var store = store
            store[at + label.count] = UInt8(ascii: "/")
            return store
        }
        for (name, manifest) in [("lying length", lying), ("not a manifest", nested), ("label with a slash", slash)] {
            let file = try manifest.jpeg()
            #expect(throws: ParentManifests.Unusable.self, "\(name)") { try ParentManifests.read(file) }
        }
        let truncated = Array(try TestManifest(identity: keys.identity).jpeg().prefix(200))
        #expect((try? ParentManifests.read(truncated)) ?? nil == nil)
    }
}
