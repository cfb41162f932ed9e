import Platform
import Values

/// Reads and checks the C2PA Content Credentials of a JPEG, offline, as strictly as the reference
/// reader (c2pa-rs): the manifest store in its APP11 segments, the active manifest's claim and its
/// COSE_Sign1 signature (ES256, x5chain in the protected header, a signer certificate of C2PA's
/// profile), each assertion against the hash the claim gives it, the hard binding
/// (`c2pa.hash.data`) against the file itself, and the manifest of each parent ingredient kept in
/// the store.
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
            result.damage = error.cut ? .cut : .malformed(error.reason)
            if error.noManifest {
                result.outcome = .noCredentials
                result.problem = "the manifest store holds no manifest a C2PA reader can find: \(error.reason)"
            } else {
                result.fail(.invalid, error.cut ? "the file ends inside its credentials: it was cut short after it was signed"
                    : "the credentials are damaged: \(error.reason)")
            }
        }
        return result
    }

    /// A manifest whose claim and signature were read, and its assertions whose hashes hold, by label.
    struct CheckedManifest {
        let label: String
        let claim: CBORValue
        let assertions: [String: JUMBFSuperbox]
    }

    private static func check(_ store: JPEGManifestStore, file: [UInt8], trust: TrustAnchors, now: Int,
                              into result: inout Verification) throws(Malformed) {
        let bytes = store.bytes
        let root = try JUMBFSuperbox.read(bytes)
        guard root.children.allSatisfy(\.isManifest) else { throw Malformed("the manifest store holds a box that is no manifest") }
        // The active manifest is the last one in the store.
        guard let manifest = root.children.last else { throw Malformed("the manifest store holds no manifest") }
        let checked = try checkManifest(manifest, bytes: bytes, trust: trust, now: now, into: &result)
        result.generator = generator(of: checked.claim)
        try checkBinding(checked.assertions, store: store, bytes: bytes, file: file, into: &result)
        if let stamp = checked.assertions[stampLabel], let payload = stamp.payload("cbor"), let value = CBORDecoder.decode(Array(bytes[payload])) {
            result.stamp = value.json
            if case .object(let members) = value.json, case .string(let text)? = members["stamped"], let time = Timestamp(iso8601: text) {
                result.signedAt = Verification.SigningTime(time: time, attested: false)
            }
        }
        // A time-stamp that holds is the authority's word for when it was signed: it wins over the
        // signer's clock, shown in the zone the photo's record gives.
        if let stamp = result.timeStamp, stamp.holds, let seconds = stamp.time {
            let offset = result.signedAt?.time.utcOffsetMinutes ?? 0
            result.signedAt = Verification.SigningTime(time: Timestamp(secondsSinceEpoch: seconds, utcOffsetMinutes: offset), attested: true)
        }
        var visited: Set<String> = [checked.label]
        if let parent = try checkParent(of: checked, root: root, bytes: bytes, now: now, visited: &visited) {
            result.parent = parent
            if !parent.holds {
                result.fail(parent.outcome, "the credentials of the photo it was made from do not hold: \(parent.problem ?? "")")
            }
        }
    }

    /// A manifest's claim, its signature, and the hash of each assertion it signs.
    private static func checkManifest(_ manifest: JUMBFSuperbox, bytes: [UInt8], trust: TrustAnchors, now: Int,
                                      into result: inout Verification) throws(Malformed) -> CheckedManifest {
        guard let manifestLabel = manifest.label, !manifestLabel.isEmpty else { throw Malformed("a manifest without its label") }
        // A manifest is known by its claim: without one of the claim's type, C2PA readers find no manifest.
        guard let claimBox = manifest.child("c2pa.claim.v2") ?? manifest.child("c2pa.claim") else {
            throw Malformed("the manifest has no claim", noManifest: true)
        }
        guard claimBox.type == JUMBFBox.claimUUID else { throw Malformed("its claim's box is not of the claim's type", noManifest: true) }
        guard let claimRange = claimBox.payload("cbor") else { throw Malformed("the manifest's claim has no CBOR") }
        let claimBytes = Array(bytes[claimRange])
        guard let claim = CBORDecoder.decode(claimBytes), claim.isMap else { throw Malformed("the claim is not a CBOR map") }

        try checkSignature(manifest, claim: claimBytes, bytes: bytes, trust: trust, now: now, into: &result)

        // Every assertion the claim lists, by its hashed URI.
        let references = (claim["assertions"]?.array ?? []) + (claim["created_assertions"]?.array ?? [])
            + (claim["gathered_assertions"]?.array ?? [])
        let assertions = try manifest.child("c2pa.assertions", type: JUMBFBox.assertionStoreUUID)
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
        return CheckedManifest(label: manifestLabel, claim: claim, assertions: signed)
    }

    /// The COSE_Sign1 signature over the claim, the certificates: C2PA's signer profile, their validity and trust.
    private static func checkSignature(_ manifest: JUMBFSuperbox, claim: [UInt8], bytes: [UInt8], trust: TrustAnchors, now: Int,
                                       into result: inout Verification) throws(Malformed) {
        guard let box = try manifest.child("c2pa.signature", type: JUMBFBox.signatureUUID), let range = box.payload("cbor"),
              let decoded = CBORDecoder.decode(Array(bytes[range])) else {
            throw Malformed("the manifest has no readable signature")
        }
        var sign1 = decoded
        if case .tagged(COSESign1.tag, let inner) = decoded { sign1 = inner }
        guard let parts = sign1.array, parts.count == 4, let protectedBytes = parts[0].bytes, parts[1].isMap, let signature = parts[3].bytes else {
            throw Malformed("the signature is not a COSE_Sign1 structure")
        }
        guard let protected = CBORDecoder.decode(protectedBytes), protected.isMap else {
            throw Malformed("the signature's protected header is not a CBOR map")
        }
        guard let algorithm = protected[label: COSESign1.algorithm]?.integer else { throw Malformed("the signature names no algorithm") }
        // C2PA 2.x: the chain is signed with the claim, so it cannot be swapped (c2pa-rs reads it from nowhere else).
        guard let chainValue = protected[label: COSESign1.x5chain] else {
            throw Malformed(parts[1][label: COSESign1.x5chain] != nil ? "the signature's certificate chain is outside its protected header"
                : "the signature's certificate chain is missing")
        }
        let der = chainValue.bytes.map { [$0] } ?? chainValue.array?.compactMap(\.bytes) ?? []
        let chain = der.compactMap(X509Certificate.read(der:))
        guard let signer = chain.first, chain.count == der.count, chainValue.array.map({ $0.count == der.count }) ?? true else {
            throw Malformed("the signature's certificate chain is missing or unreadable")
        }
        result.certificates = chain.map(CertificateInfo.init)

        // A detached payload is the claim; an attached one must be it.
        switch parts[2] {
        case .null: break
        case .bytes(let payload) where payload == claim: break
        default: throw Malformed("the signature signs something other than the claim")
        }
        if algorithm != COSESign1.es256 {
            result.fail(.invalid, "signed with COSE algorithm \(algorithm), which stampcam cannot check (it checks ES256)")
        } else if let message = try? COSESign1.toBeSigned(protected: protectedBytes, payload: claim), signer.verifiesES256(signature, of: message) {
            result.signatureValid = true
        } else {
            result.fail(.invalid, "the signature does not match the claim")
        }
        if let problem = signer.signerProfileProblem {
            result.fail(.invalid, "the signer's certificate \(signer.subject) may not sign C2PA credentials: \(problem)")
        }

        // A trusted time-stamp says when it was signed: the certificates must have been valid then.
        result.timeStamp = timeStamp(in: parts[1], protected: protectedBytes, signature: signature, claim: claim, trust: trust)
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

    /// The parent ingredient `manifest` signs, when it points at a manifest kept in the store: that
    /// manifest found by its label, its hash and its signature's the ones the ingredient signed,
    /// its claim, signature and assertions checked as the active one's (its hard binding cannot
    /// be: the parent's file is not here), what the ingredient recorded of its checks, and its
    /// own parent, and so on up. Trust and validity are the active signer's to answer for.
    private static func checkParent(of manifest: CheckedManifest, root: JUMBFSuperbox, bytes: [UInt8], now: Int,
                                    visited: inout Set<String>) throws(Malformed) -> Verification.Parent? {
        let ingredients = manifest.assertions.filter { $0.key.hasPrefix("c2pa.ingredient") }.compactMap { _, box -> CBORValue? in
            box.payload("cbor").flatMap { CBORDecoder.decode(Array(bytes[$0])) }
        }
        guard let ingredient = ingredients.first(where: { $0["relationship"]?.text == "parentOf" }),
              let pointer = ingredient["activeManifest"] ?? ingredient["c2pa_manifest"] else { return nil }
        var parent = Verification.Parent()
        parent.title = ingredient["dc:title"]?.text.map(printable)
        func failed(_ outcome: Verification.Outcome, _ problem: String) -> Verification.Parent {
            parent.outcome = outcome
            parent.problem = problem
            return parent
        }
        guard let url = pointer["url"]?.text, let hash = pointer["hash"]?.bytes, url.hasPrefix("self#jumbf=/c2pa/") else {
            return failed(.invalid, "the ingredient's reference to its manifest is not readable")
        }
        let label = String(url.dropFirst("self#jumbf=/c2pa/".count))
        guard !visited.contains(label), let box = root.children.first(where: { $0.label == label }) else {
            return failed(.changed, "its manifest \(printable(label)) is not in the store")
        }
        visited.insert(label)
        guard Digest.sha256(bytes, ranges: [box.contents]) == hash else {
            return failed(.changed, "its manifest was changed after the photo was signed")
        }
        if let signature = ingredient["claimSignature"], let signatureHash = signature["hash"]?.bytes {
            guard let signatureBox = box.child("c2pa.signature"), Digest.sha256(bytes, ranges: [signatureBox.contents]) == signatureHash else {
                return failed(.changed, "its signature was changed after the photo was signed")
            }
        }
        var own = Verification()
        own.outcome = .valid
        let checked: CheckedManifest
        do { checked = try checkManifest(box, bytes: bytes, trust: TrustAnchors(), now: now, into: &own) } catch {
            return failed(.invalid, "its manifest is damaged: \(error.reason)")
        }
        parent.generator = generator(of: checked.claim)
        parent.signer = own.signer
        // Its signature and its assertions' hashes; its signer's trust and validity are not judged here.
        if !own.signatureValid { return failed(.invalid, own.problem ?? "its signature does not match its claim") }
        if own.outcome == .changed || own.outcome == .invalid { return failed(own.outcome, own.problem ?? "") }
        // What was found when it was made an ingredient: a failure then (its file changed after it was signed) stays one.
        if case .array(let failures)? = ingredient["validationResults"]?["activeManifest"]?["failure"], let first = failures.first {
            let code = first["code"]?.text.map(printable) ?? "a failure"
            return failed(code.hasSuffix("mismatch") && code != "claimSignature.mismatch" ? .changed : .invalid,
                          "when it was used, its credentials had failed a check (\(code))")
        }
        if let grandparent = try checkParent(of: checked, root: root, bytes: bytes, now: now, visited: &visited), !grandparent.holds {
            return failed(grandparent.outcome, "the photo it was made from: \(grandparent.problem ?? "")")
        }
        return parent
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

    private static func generator(of claim: CBORValue) -> String? {
        if let name = claim["claim_generator"]?.text { return name }
        guard let info = claim["claim_generator_info"] else { return nil }
        let first = info.array?.first ?? info
        guard let name = first["name"]?.text else { return nil }
        return first["version"]?.text.map { "\(name)/\($0)" } ?? name
    }

    /// Text from a file as a message may quote it: control characters as "?", at most 120 characters.
    public static func printable(_ text: String) -> String {
        let clean = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
        return clean.count > 120 ? String(clean.prefix(119)) + "…" : clean
    }
}
