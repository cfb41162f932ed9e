import Values

/// The C2PA manifests a photo's file already carries, kept when the photo is stamped: the new store
/// holds them byte for byte before its own manifest, and the new manifest's parent ingredient points
/// at their active one (C2PA's provenance chain).
public struct ParentManifests: Sendable, Equatable {
    /// Each manifest superbox, whole, in the order of the source's store; the last is its active one.
    let boxes: [JUMBFBox]
    /// The active manifest's label (`urn:c2pa:…`), as the hashed URIs name it.
    let activeLabel: String
    /// SHA-256 of the active manifest superbox's contents, and of its signature superbox's.
    let activeHash: [UInt8]
    let signatureHash: [UInt8]
    /// What stampcam found checking the active manifest, as the ingredient's `validationResults`:
    /// its signature and its hard binding (trust is the reader's to judge, so it is not claimed).
    let validation: CBORValue

    /// A store larger than this is not kept: the new photo would carry it again in full, and it
    /// is refused by the size of its segments, before it is put together.
    static let storeLimit = 2 << 20
    /// How many manifests a kept store may hold.
    static let manifestLimit = 64

    /// Why a source's store cannot be kept: the photo is then stamped naming its source by hash only.
    public struct Unusable: Error, Sendable {
        public let reason: String
    }

    /// The manifests in `file`; nil when it carries none. Throws when the store is too big, does
    /// not hold as `ManifestReader` checks it (damaged, changed, its signature or signer's
    /// certificate not valid, its own parent broken: only its trust and dates are not asked), or
    /// is not laid out so that it can be copied whole.
    public static func read(_ file: [UInt8]) throws(Unusable) -> ParentManifests? {
        let size = JPEGManifestSegments.existingStoreSize(file)
        guard size <= storeLimit else { throw Unusable(reason: "its manifest store is over \(storeLimit >> 20) MB") }
        let checked = ManifestReader.verify(file: file, trust: TrustAnchors(), now: 0)
        guard checked.hasCredentials else { return nil }
        if checked.damage != nil || checked.outcome > .noCredentials {
            let problem = checked.problem ?? "they cannot be read"
            throw Unusable(reason: checked.damage != nil ? problem : "they do not hold: \(problem)")
        }
        let store: JPEGManifestStore
        do {
            guard let found = try JPEGManifestStore.find(in: file) else { return nil }
            store = found
        } catch { throw Unusable(reason: "its manifest store is damaged: \(error.reason)") }
        let root: JUMBFSuperbox
        do { root = try JUMBFSuperbox.read(store.bytes) } catch { throw Unusable(reason: "its manifest store is damaged: \(error.reason)") }
        var boxes: [JUMBFBox] = []
        for child in root.children {
            guard child.isManifest else { throw Unusable(reason: "its manifest store holds a box that is no manifest") }
            // The superbox's header is 8 bytes unless it is a large box: those are not copied.
            let start = child.contents.lowerBound - 8
            guard start >= 0, JUMBFSuperbox.bigEndian32(store.bytes, start) == UInt32(8 + child.contents.count) else {
                throw Unusable(reason: "a manifest's box is not in the usual form")
            }
            boxes.append(JUMBFBox(type: "jumb", payload: Array(store.bytes[child.contents])))
        }
        guard !boxes.isEmpty, boxes.count <= manifestLimit else {
            throw Unusable(reason: boxes.isEmpty ? "its manifest store holds no manifest" : "its manifest store holds over \(manifestLimit) manifests")
        }
        let active = root.children[root.children.count - 1]
        // The label goes into URIs: a plain one only.
        guard let label = active.label, !label.isEmpty, label.utf8.count <= 256,
              label.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0 != "/" && $0 != "#" && $0.value < 0x7f }) else {
            throw Unusable(reason: "its active manifest's label is not a plain one")
        }
        guard let signature = active.child("c2pa.signature") else { throw Unusable(reason: "its active manifest has no signature") }
        guard let activeHash = Digest.sha256(store.bytes, ranges: [active.contents]),
              let signatureHash = Digest.sha256(store.bytes, ranges: [signature.contents]) else {
            throw Unusable(reason: "its active manifest cannot be hashed")
        }
        let manifest = "self#jumbf=/c2pa/" + label
        let results: [(passed: Bool, code: String, failure: String, url: String)] = [
            (checked.signatureValid, "claimSignature.validated", "claimSignature.mismatch", manifest + "/c2pa.signature"),
            (checked.bindingHolds, "assertion.dataHash.match", "assertion.dataHash.mismatch", manifest + "/c2pa.assertions/c2pa.hash.data"),
        ]
        let status = { (code: String, url: String) in CBORValue.textMap(["code": .text(code), "url": .text(url)]) }
        let validation = CBORValue.textMap(["activeManifest": .textMap([
            "success": .array(results.filter(\.passed).map { status($0.code, $0.url) }),
            "informational": .array([]),
            "failure": .array(results.filter { !$0.passed }.map { status($0.failure, $0.url) }),
        ])])
        return ParentManifests(boxes: boxes, activeLabel: label, activeHash: activeHash, signatureHash: signatureHash, validation: validation)
    }
}
