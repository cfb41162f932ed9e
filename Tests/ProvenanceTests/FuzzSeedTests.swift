@testable import Provenance
import Testing
import TestSupport

/// The seeds of the fuzz targets `c2pa`, `jumbf` and `cbor` (see TestSupport's FuzzSeeds): photos
/// signed by hand (in many APP11 segments) and by ManifestSigner (alone and over a parent's
/// manifest), their manifest stores, and every CBOR box in them; each valid as it is.
@Suite struct FuzzSeedTests {
    @Test func c2paSeedsAreValidCredentials() throws {
        let keys = try KeysFixture.installation()
        let trust = try TrustAnchors(files: [keys.folder + "/ca.pem"])
        var segmented = TestManifest(identity: keys.identity)
        segmented.segmentSize = 700
        let byHand = try segmented.jpeg()
        let plain = [0xff, 0xd8] + segmented.picture
        func signed(_ manifests: ParentManifests?) throws -> [UInt8] {
            let ingredient = Credentials.Ingredient(title: "source.jpg", sha256: "00", manifests: manifests)
            let credentials = Credentials(generator: "stampcam", version: "test", origin: .opened(ingredient), edit: "stamped",
                                          assertions: [])
            return try ManifestSigner(identity: keys.identity).sign(plain, credentials: credentials)
        }
        let photos = [("by-hand", byHand), ("signed", try signed(nil)), ("signed-over-parent", try signed(try ParentManifests.read(byHand)))]
        for (name, photo) in photos {
            let result = ManifestReader.verify(file: photo, trust: trust, now: KeysFixture.now)
            #expect(result.outcome == .valid, "\(name): \(result.problem ?? "")")
            try FuzzSeeds.write(photo, target: "c2pa", name: name)

            let store = try #require(try JPEGManifestStore.find(in: photo)).bytes
            try FuzzSeeds.write(store, target: "jumbf", name: name)
            var boxes = [try JUMBFSuperbox.read(store)]
            while let box = boxes.popLast() {
                boxes += box.children
                guard let payload = box.payload("cbor") else { continue }
                let cbor = Array(store[payload])
                #expect(CBORDecoder.decode(cbor) != nil, "\(name): \(box.label ?? "")")
                try FuzzSeeds.write(cbor, target: "cbor", name: name + "-" + (box.label ?? "box").replacingOccurrences(of: "/", with: "_"))
            }
        }
    }
}
