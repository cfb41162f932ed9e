import Platform
import Values

/// Reads and checks the C2PA Content Credentials of a JPEG, offline: the manifest store in its
/// APP11 segments, the active manifest's claim and its COSE_Sign1 signature (ES256, x5chain), each
/// assertion against the hash the claim gives it, and the hard binding (`c2pa.hash.data`) against
/// the file itself.
public enum ManifestReader {
    /// stampcam's own assertion.
    public static let stampLabel = "org.stampcam.stamp"
    /// Photos larger than this are not read whole.
    static let fileLimit = 1 << 30

    /// Verifies the photo at `path` at `now` (seconds since the epoch). Throws only when the file
    /// cannot be read; what is wrong with its credentials is in the result.
    public static func verify(path: String, trust: TrustAnchors, now: Int) throws(ProvenanceError) -> Verification {
        let file: [UInt8]
        do {
            file = try FileSystem.read(FilePath(path), limit: fileLimit)
        } catch {
            switch error {
            case .system(let errno): throw .cannotRead(path: path, reason: errno.description)
            case .notRegular(let kind): throw .cannotRead(path: path, reason: "it is \(kind), not a regular file")
            case .tooLarge(let size, _): throw .cannotRead(path: path, reason: "it is \(size) bytes, over the 1 GB stampcam verifies")
            }
        }
        return verify(file: file, trust: trust, now: now)
    }

    /// Verifies a JPEG's bytes.
    public static func verify(file: [UInt8], trust: TrustAnchors, now: Int) -> Verification {
        var result = Verification()
        do {
            guard let store = try JPEGManifestStore.find(in: file) else {
                result.problem = "the file holds no C2PA manifest"
                return result
            }
            result.hasCredentials = true
            result.outcome = .valid
            try check(store, file: file, trust: trust, now: now, into: &result)
        } catch {
            result.hasCredentials = true
            result.fail(.invalid, "the credentials are damaged: \(error.reason)")
        }
        return result
    }


    private static func check(_ store: JPEGManifestStore, file: [UInt8], trust: TrustAnchors, now: Int,
                              into result: inout Verification) throws(Malformed) {
        let bytes = store.bytes
        let root = try JUMBFSuperbox.read(bytes)
        // The active manifest is the last one in the store.
        guard let manifest = root.children.last(where: { ["c2ma", "c2um"].contains($0.typeName) }), let manifestLabel = manifest.label else {
            throw Malformed("the manifest store holds no manifest")
        }
        guard let claimBox = manifest.child("c2pa.claim.v2") ?? manifest.child("c2pa.claim"), let claimRange = claimBox.payload("cbor") else {
            throw Malformed("the manifest has no claim")
        }
        let claimBytes = Array(bytes[claimRange])
        guard let claim = CBORDecoder.decode(claimBytes), claim.isMap else { throw Malformed("the claim is not a CBOR map") }
        result.generator = claim["claim_generator"]?.text ?? claim["claim_generator_info"].flatMap(generatorName)

        try checkSignature(manifest, claim: claimBytes, bytes: bytes, trust: trust, now: now, into: &result)

        // Every assertion the claim lists, by its hashed URI.
        let references = (claim["assertions"]?.array ?? []) + (claim["created_assertions"]?.array ?? [])
            + (claim["gathered_assertions"]?.array ?? [])
        let assertions = manifest.child("c2pa.assertions")
        var signed: [String: JUMBFSuperbox] = [:]
        for reference in references {
            guard let url = reference["url"]?.text, let hash = reference["hash"]?.bytes else { throw Malformed("an assertion reference without its URL or hash") }
            guard let label = assertionLabel(url, manifest: manifestLabel), let box = assertions?.child(label) else {
                result.fail(.changed, "the signed assertion \(printable(url)) is missing")
                continue
            }
            guard (reference["alg"]?.text ?? claim["alg"]?.text ?? "sha256") == "sha256" else {
                throw Malformed("assertion \(printable(label)) is hashed with an algorithm stampcam does not check")
            }
            guard Digest.sha256(bytes, ranges: [box.contents]) == hash else {
                result.fail(.changed, "the assertion \(printable(label)) was changed since signing")
                continue
            }
            signed[label] = box
        }

        try checkBinding(signed, store: store, bytes: bytes, file: file, into: &result)
        result.parentHasCredentials = signed.contains { label, box in
            guard label.hasPrefix("c2pa.ingredient"), let payload = box.payload("cbor"), let ingredient = CBORDecoder.decode(Array(bytes[payload])),
                  ingredient["relationship"]?.text == "parentOf", let url = ingredient["activeManifest"]?["url"]?.text else { return false }
            return root.children.contains { $0.label.map { "self#jumbf=/c2pa/" + $0 } == url && $0.label != manifestLabel }
        }
        if let stamp = signed[stampLabel], let payload = stamp.payload("cbor"), let value = CBORDecoder.decode(Array(bytes[payload])) {
            result.stamp = value.json
        }
    }

    /// The COSE_Sign1 signature over the claim, the certificates, their validity and trust.
    private static func checkSignature(_ manifest: JUMBFSuperbox, claim: [UInt8], bytes: [UInt8], trust: TrustAnchors, now: Int,
                                       into result: inout Verification) throws(Malformed) {
        guard let box = manifest.child("c2pa.signature"), let range = box.payload("cbor"), let decoded = CBORDecoder.decode(Array(bytes[range])) else {
            throw Malformed("the manifest has no readable signature")
        }
        var sign1 = decoded
        if case .tagged(18, let inner) = decoded { sign1 = inner }
        guard let parts = sign1.array, parts.count == 4, let protectedBytes = parts[0].bytes, let signature = parts[3].bytes else {
            throw Malformed("the signature is not a COSE_Sign1 structure")
        }
        let protected = protectedBytes.isEmpty ? CBORValue.map([]) : CBORDecoder.decode(protectedBytes)
        guard let protected, protected.isMap else { throw Malformed("the signature's protected header is not a CBOR map") }
        let unprotected = parts[1]
        guard let algorithm = protected[label: 1]?.integer else { throw Malformed("the signature names no algorithm") }
        let chainValue = protected[label: 33] ?? unprotected[label: 33]
        let der = chainValue?.bytes.map { [$0] } ?? chainValue?.array?.compactMap(\.bytes) ?? []
        let chain = der.compactMap(X509Certificate.read(der:))
        guard let signer = chain.first, chain.count == der.count else { throw Malformed("the signature's certificate chain is missing or unreadable") }
        result.certificates = chain.map(CertificateInfo.init)

        // A detached payload is the claim; an attached one must be it.
        switch parts[2] {
        case .null: break
        case .bytes(let payload) where payload == claim: break
        default: throw Malformed("the signature signs something other than the claim")
        }
        if algorithm != -7 {
            result.fail(.invalid, "signed with COSE algorithm \(algorithm), which stampcam cannot check (it checks ES256)")
        } else if let message = try? COSESign1.toBeSigned(protected: protectedBytes, payload: claim), signer.verifiesES256(signature, of: message) {
            result.signatureValid = true
        } else {
            result.fail(.invalid, "the signature does not match the claim")
        }

        // A trusted time-stamp says when it was signed: the certificates must have been valid then.
        result.timeStamp = timeStamp(in: unprotected, protected: protectedBytes, signature: signature, claim: claim, trust: trust)
        let signedAt = result.timeStamp.flatMap { $0.holds ? $0.time : nil }
        for certificate in chain {
            switch certificate.validity(at: signedAt ?? now) {
            case ..<0: result.fail(.expired, "the certificate \(certificate.subject) is not valid before \(certificate.notBefore)")
            case 1...:
                result.fail(.expired, "the certificate \(certificate.subject) expired on \(certificate.notAfter)"
                    + (signedAt != nil ? " (before the photo's time-stamp)"
                        : result.timeStamp.map { " and the photo's time-stamp is not used: \($0.problem ?? "")" } ?? " and the photo carries no time-stamp"))
            default: break
            }
        }
        result.trusted = signer.chains(to: trust.certificates, through: Array(chain.dropFirst()))
        if !result.trusted {
            result.fail(.untrusted, "the signer \(signer.subject) does not chain to a trusted CA")
        }
    }

    /// The hard binding: SHA-256 of the file without its exclusions, which must lie inside the
    /// manifest store's own segments (else a manifest could leave the picture out of its hash).
    private static func checkBinding(_ signed: [String: JUMBFSuperbox], store: JPEGManifestStore, bytes: [UInt8], file: [UInt8],
                                     into result: inout Verification) throws(Malformed) {
        let bindings = signed.filter { $0.key == "c2pa.hash.data" || $0.key.hasPrefix("c2pa.hash.data__") }
        guard bindings.count == 1, let box = bindings.first?.value else {
            result.fail(.changed, bindings.isEmpty ? "the claim signs no hard binding (c2pa.hash.data) of the file"
                : "the claim signs \(bindings.count) hard bindings")
            return
        }
        guard let payload = box.payload("cbor"), let binding = CBORDecoder.decode(Array(bytes[payload])),
              let expected = binding["hash"]?.bytes else { throw Malformed("the hard binding is not readable") }
        guard (binding["alg"]?.text ?? "sha256") == "sha256" else { throw Malformed("the hard binding uses an algorithm stampcam does not check") }
        var excluded: [Range<Int>] = []
        for exclusion in binding["exclusions"]?.array ?? [] {
            guard let start = exclusion["start"]?.integer, let length = exclusion["length"]?.integer, start >= 0, length >= 0,
                  start <= file.count, length <= file.count - start else {
                result.fail(.changed, "the hard binding leaves out bytes the file does not have")
                return
            }
            let range = start..<start + length
            guard excluded.last.map({ $0.upperBound <= start }) ?? true else {
                result.fail(.changed, "the hard binding's exclusions overlap or are out of order")
                return
            }
            guard store.ranges.contains(where: { $0.contains(range) }) else {
                result.fail(.changed, "the hard binding leaves out bytes (\(start)..<\(start + length)) that are not its manifest's")
                return
            }
            excluded.append(range)
        }
        var included: [Range<Int>] = []
        var next = 0
        for range in excluded {
            included.append(next..<range.lowerBound)
            next = range.upperBound
        }
        included.append(next..<file.count)
        if Digest.sha256(file, ranges: included) == expected {
            result.bindingHolds = true
        } else {
            result.fail(.changed, "the file's SHA-256 no longer matches the one signed in its hard binding")
        }
    }

    /// The assertion label a hashed URI names in the manifest labelled `manifest`: `self#jumbf=c2pa.assertions/LABEL`
    /// or `self#jumbf=/c2pa/MANIFEST/c2pa.assertions/LABEL`; nil for anything else.
    static func assertionLabel(_ url: String, manifest: String) -> String? {
        guard url.hasPrefix("self#jumbf=") else { return nil }
        var parts = url.dropFirst("self#jumbf=".count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.first == "" {
            guard parts.count == 5, parts[1] == "c2pa", parts[2] == manifest else { return nil }
            parts.removeFirst(3)
        }
        guard parts.count == 2, parts[0] == "c2pa.assertions", !parts[1].isEmpty else { return nil }
        return parts[1]
    }

    private static func generatorName(_ info: CBORValue) -> String? {
        let first = info.array?.first ?? info
        guard let name = first["name"]?.text else { return nil }
        return first["version"]?.text.map { "\(name)/\($0)" } ?? name
    }

    /// Text from a file as a message may quote it: control characters as "?", at most 120 characters.
    static func printable(_ text: String) -> String {
        let clean = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
        return clean.count > 120 ? String(clean.prefix(119)) + "…" : clean
    }
}
