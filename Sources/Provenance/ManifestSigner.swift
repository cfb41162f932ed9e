import Synchronization
import Values

/// Signs JPEGs: puts into each a C2PA manifest store with a hard binding over the file's other
/// bytes, the actions, the generator's own assertions, and a COSE_Sign1 signature of the claim.
public struct ManifestSigner: Sendable {
    private let source: IdentitySource
    /// The authority that time-stamps each signature (`--tsa`); nil signs without time-stamps.
    public let timeStamps: TimeStampAuthority?

    public init(identity: SigningIdentity, timeStamps: TimeStampAuthority? = nil) {
        source = IdentitySource(.opened(.success(identity)))
        self.timeStamps = timeStamps
    }

    /// A signer whose identity `open` gives when the first photo is about to be signed, and not
    /// before: a run that signs nothing opens (or makes) no keys. What `open` gives, the identity or
    /// its error, stands for every photo after.
    public init(timeStamps: TimeStampAuthority? = nil,
                identityOnFirstUse open: @escaping @Sendable () throws(ProvenanceError) -> SigningIdentity) {
        source = IdentitySource(.waiting(open))
        self.timeStamps = timeStamps
    }

    /// The identity photos are signed with, opened now when this is its first use.
    public func identity() throws(ProvenanceError) -> SigningIdentity {
        try source.state.withLock { state throws(ProvenanceError) in
            if case .waiting(let open) = state {
                state = .opened(Result { () throws(ProvenanceError) in try open() })
            }
            guard case .opened(let result) = state else { preconditionFailure("an identity source is opened above") }
            return try result.get()
        }
    }

    /// `jpeg` with the manifest store for `credentials` in APP11 segments after its leading APP
    /// segments; everything else in it is unchanged.
    public func sign(_ jpeg: [UInt8], credentials: Credentials) throws(ProvenanceError) -> [UInt8] {
        var notes: [String] = []
        return try sign(jpeg, credentials: credentials, notes: &notes)
    }

    /// `sign`, with a note in `notes` when the photo is signed without the time-stamp asked for
    /// (the authority is down, slow or answered wrongly): the photo is signed all the same.
    public func sign(_ jpeg: [UInt8], credentials: Credentials, notes: inout [String]) throws(ProvenanceError) -> [UInt8] {
        let start = try JPEGManifestSegments.insertionOffset(jpeg)
        let identity = try identity()
        guard let random = CryptoKey.random(32) else { throw .crypto("make a random manifest label") }
        let labels = (manifest: "urn:c2pa:" + Self.uuid(random.prefix(16)), instance: "xmp:iid:" + Self.uuid(random.suffix(16)))
        let protected = try COSESign1.protectedHeader(chain: identity.certificateChainDER)
        let bare = try COSESign1.message(protected: protected, signature: [UInt8](repeating: 0, count: 64))?.count ?? 0
        let hash = try Digest.sha256(jpeg)
        // The signature's size is fixed before the claim is signed (the claim names the store's
        // size); a time-stamp comes after signing, so room is reserved for it and padded.
        var reserve = timeStamps?.reserve ?? 0
        for attempt in 0..<3 {
            if attempt == 2, reserve > 0, let timeStamps {
                // Two tokens larger than the room made for them: signed without one rather than not at all.
                notes.append("not time-stamped: the time-stamp authority \(timeStamps.url) answered with tokens larger than the room made for them")
                reserve = 0
            }
            let length = bare + reserve
            let placeholder = [UInt8](repeating: 0, count: length)
            // The binding names the store's own size, which depends on how that size is written: grow
            // the size until the store written with it has it. Only the number's width can change.
            var size = 0
            while true {
                let parts = try parts(credentials, labels: labels, exclusion: start..<(start + size), hash: hash)
                let grown = JPEGManifestSegments.segments(store(parts, labels: labels, signature: placeholder).bytes).count
                if grown == size { break }
                size = grown
            }
            let parts = try parts(credentials, labels: labels, exclusion: start..<(start + size), hash: hash)
            let signature = try identity.sign(try COSESign1.toBeSigned(protected: protected, payload: parts.claim))
            var token: [UInt8]?
            if let timeStamps, reserve > 0 {
                switch timeStamps.token(for: try COSESign1.timeStamped(protected: protected, signature: signature)) {
                case .success(let made): token = made
                case .failure(let failure):
                    notes.append("not time-stamped: the time-stamp authority \(timeStamps.url) \(failure.words); "
                        + "the photo is signed without one (it stays valid only while its certificate is)")
                    reserve = 0  // laid out again without the room
                    continue
                }
            }
            guard let message = try COSESign1.message(protected: protected, signature: signature, token: token, length: length) else {
                reserve = (token?.count ?? 0) + 512  // the token is larger than the room: laid out again with more
                continue
            }
            // The segments go in exactly where they are excluded, so the bytes hashed are `jpeg` itself.
            let segments = JPEGManifestSegments.segments(store(parts, labels: labels, signature: message).bytes)
            guard segments.count == size else { throw .crypto("lay out the manifest store (its size changed)") }
            return Array(jpeg[..<start]) + segments + Array(jpeg[start...])
        }
        throw .crypto("fit the time-stamp into the signature")
    }

    /// A manifest's pieces before it is signed: its assertion boxes, the claim that lists them,
    /// and the source's manifests kept before it.
    typealias Parts = (assertions: [JUMBFBox], claim: [UInt8], parents: [JUMBFBox])

    /// The assertions for `credentials` with a hard binding that leaves out `exclusion`, and the claim.
    func parts(_ credentials: Credentials, labels: (manifest: String, instance: String),
               exclusion: Range<Int>, hash: [UInt8]) throws(ProvenanceError) -> Parts {
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
        var parents: [JUMBFBox] = []
        if case .opened(let ingredient) = credentials.origin, let kept = ingredient.manifests { parents = kept.boxes }
        return (boxes, claim, parents)
    }

    /// The manifest store superbox: the source's manifests when it carried some, then ours (the
    /// active one) of assertions, claim and `signature` (a COSE_Sign1 message).
    func store(_ parts: Parts, labels: (manifest: String, instance: String), signature: [UInt8]) -> JUMBFBox {
        let manifest = JUMBFBox.superbox(uuid: JUMBFBox.manifestUUID, label: labels.manifest, children: [
            .superbox(uuid: JUMBFBox.assertionStoreUUID, label: "c2pa.assertions", children: parts.assertions),
            .cbor(uuid: JUMBFBox.claimUUID, label: "c2pa.claim.v2", parts.claim),
            .cbor(uuid: JUMBFBox.signatureUUID, label: "c2pa.signature", signature),
        ])
        return .superbox(uuid: JUMBFBox.manifestStoreUUID, label: "c2pa", children: parts.parents + [manifest])
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

/// Where a signer's identity comes from: given, or opened on first use (and then kept, or its error).
private final class IdentitySource: Sendable {
    enum State {
        case waiting(@Sendable () throws(ProvenanceError) -> SigningIdentity)
        case opened(Result<SigningIdentity, ProvenanceError>)
    }

    let state: Mutex<State>

    init(_ state: State) { self.state = Mutex(state) }
}
