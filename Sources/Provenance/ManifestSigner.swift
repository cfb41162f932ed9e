import Values

/// Signs JPEGs: puts into each a C2PA manifest store with a hard binding over the file's other
/// bytes, the actions, the generator's own assertions, and a COSE_Sign1 signature of the claim.
public struct ManifestSigner: Sendable {
    public let identity: SigningIdentity

    public init(identity: SigningIdentity) {
        self.identity = identity
    }

    /// `jpeg` with the manifest store for `credentials` in APP11 segments after its leading APP
    /// segments; everything else in it is unchanged.
    public func sign(_ jpeg: [UInt8], credentials: Credentials) throws(ProvenanceError) -> [UInt8] {
        let start = try JPEGManifestSegments.insertionOffset(jpeg)
        guard let random = CryptoKey.random(32) else { throw .crypto("make a random manifest label") }
        let labels = (manifest: "urn:c2pa:" + Self.uuid(random.prefix(16)), instance: "xmp:iid:" + Self.uuid(random.suffix(16)))
        // The binding names the store's own size, which depends on how that size is written: grow
        // the size until the store written with it has it. Only the number's width can change.
        let placeholder = [UInt8](repeating: 0, count: 32)
        var length = 0
        while true {
            let size = try segments(credentials, labels: labels, exclusion: start..<(start + length), hash: placeholder).count
            if size == length { break }
            length = size
        }
        // The segments go in exactly where they are excluded, so the bytes hashed are `jpeg` itself.
        let store = try segments(credentials, labels: labels, exclusion: start..<(start + length), hash: try Digest.sha256(jpeg))
        guard store.count == length else { throw .crypto("lay out the manifest store (its size changed)") }
        return Array(jpeg[..<start]) + store + Array(jpeg[start...])
    }

    /// The manifest store's APP11 segments.
    private func segments(_ credentials: Credentials, labels: (manifest: String, instance: String),
                          exclusion: Range<Int>, hash: [UInt8]) throws(ProvenanceError) -> [UInt8] {
        JPEGManifestSegments.segments(try store(credentials, labels: labels, exclusion: exclusion, hash: hash).bytes)
    }

    /// The manifest store superbox: the source's manifests when it carried some, then ours (the
    /// active one) of assertions, claim and signature.
    func store(_ credentials: Credentials, labels: (manifest: String, instance: String),
               exclusion: Range<Int>, hash: [UInt8]) throws(ProvenanceError) -> JUMBFBox {
        var assertions = [(label: "c2pa.hash.data", content: CBORValue.textMap([
            "exclusions": .array([.textMap(["start": .integer(exclusion.lowerBound), "length": .integer(exclusion.count)])]),
            "name": .text("jumbf manifest"), "alg": .text("sha256"), "hash": .bytes(hash), "pad": .bytes([]),
        ]))]
        var actions: [CBORValue] = []
        let agent = CBORValue.textMap(["name": .text(credentials.generator), "version": .text(credentials.version)])
        switch credentials.origin {
        case .captured, .generated:
            let type = credentials.origin == .captured ? Credentials.digitalCapture : Credentials.algorithmicMedia
            actions.append(.textMap(["action": .text("c2pa.created"), "digitalSourceType": .text(type), "softwareAgent": agent]))
        case .opened(let ingredient):
            var fields: [(key: CBORValue, value: CBORValue)] = [
                (.text("dc:title"), .text(ingredient.title)), (.text("dc:format"), .text(ingredient.format)),
                (.text("relationship"), .text("parentOf")), (.text("instanceID"), .text("sha256:" + ingredient.sha256)),
            ]
            if let parent = ingredient.manifests {
                let manifest = "self#jumbf=/c2pa/" + parent.activeLabel
                fields.append((.text("activeManifest"), .textMap(["url": .text(manifest), "hash": .bytes(parent.activeHash)])))
                fields.append((.text("claimSignature"), .textMap(["url": .text(manifest + "/c2pa.signature"), "hash": .bytes(parent.signatureHash)])))
                fields.append((.text("validationResults"), parent.validation))
            }
            let content = CBORValue.map(fields)
            let label = "c2pa.ingredient.v3"
            assertions.append((label: label, content: content))
            let reference = try hashedURI(label: label, box: try assertionBox(label: label, content: content))
            actions.append(.textMap(["action": .text("c2pa.opened"), "softwareAgent": agent,
                                     "parameters": .textMap(["ingredients": .array([reference])])]))
        }
        actions.append(.textMap(["action": .text("c2pa.edited"), "description": .text(credentials.edit), "softwareAgent": agent]))
        assertions.append((label: "c2pa.actions.v2", content: .textMap(["actions": .array(actions)])))
        assertions += credentials.assertions

        var boxes: [JUMBFBox] = []
        var references: [CBORValue] = []
        for assertion in assertions {
            let box = try assertionBox(label: assertion.label, content: assertion.content)
            boxes.append(box)
            references.append(try hashedURI(label: assertion.label, box: box))
        }
        let claim = try CBORValue.textMap([
            "instanceID": .text(labels.instance),
            "claim_generator_info": .textMap(["name": .text(credentials.generator), "version": .text(credentials.version)]),
            "signature": .text("self#jumbf=c2pa.signature"),
            "created_assertions": .array(references),
            "alg": .text("sha256"),
        ]).encoded
        let signature = try COSESign1.sign(claim, with: identity)
        let manifest = JUMBFBox.superbox(uuid: JUMBFBox.manifestUUID, label: labels.manifest, children: [
            .superbox(uuid: JUMBFBox.assertionStoreUUID, label: "c2pa.assertions", children: boxes),
            .cbor(uuid: JUMBFBox.claimUUID, label: "c2pa.claim.v2", claim),
            .cbor(uuid: JUMBFBox.signatureUUID, label: "c2pa.signature", signature),
        ])
        var parents: [JUMBFBox] = []
        if case .opened(let ingredient) = credentials.origin, let kept = ingredient.manifests { parents = kept.boxes }
        return .superbox(uuid: JUMBFBox.manifestStoreUUID, label: "c2pa", children: parents + [manifest])
    }

    private func assertionBox(label: String, content: CBORValue) throws(ProvenanceError) -> JUMBFBox {
        .cbor(label: label, try content.encoded)
    }

    /// A claim's reference to an assertion: its URI in this manifest and the SHA-256 of its
    /// superbox's payload (description and content boxes, without the superbox's own LBox and TBox).
    private func hashedURI(label: String, box: JUMBFBox) throws(ProvenanceError) -> CBORValue {
        .textMap(["url": .text("self#jumbf=c2pa.assertions/" + label), "hash": .bytes(try Digest.sha256(box.payload))])
    }

    /// RFC 9562 version 4 text form of 16 random bytes.
    static func uuid(_ random: ArraySlice<UInt8>) -> String {
        var bytes = Array(random)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = Hex.lowercase(bytes)
        let cuts = [0, 8, 12, 16, 20, 32].map { hex.index(hex.startIndex, offsetBy: $0) }
        return zip(cuts, cuts.dropFirst()).map { String(hex[$0..<$1]) }.joined(separator: "-")
    }
}
