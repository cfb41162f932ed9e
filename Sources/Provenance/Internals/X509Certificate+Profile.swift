internal import CCrypto

/// C2PA's profile of a claim signer's certificate (C2PA 2.1, "Certificate Profile"), read through
/// OpenSSL's own parsing of the extensions: what the reference reader (c2pa-rs) refuses as
/// `signingCredential.invalid`, stampcam refuses too.
extension X509Certificate {
    /// Extended key usages the reference reader (c2pa-python 0.38, c2pa-rs) accepts for a claim
    /// signer: S/MIME's emailProtection, timeStamping and OCSPSigning. documentSigning (RFC 9336)
    /// and C2PA's own claim-signing OID, which C2PA 2.1 names, it refuses alone, and so does stampcam.
    static let signerUsages: [(oid: String, name: String)] = [
        ("1.3.6.1.5.5.7.3.4", "emailProtection"), ("1.3.6.1.5.5.7.3.8", "timeStamping"), ("1.3.6.1.5.5.7.3.9", "OCSPSigning"),
    ]
    static let anyUsage = "2.5.29.37.0"

    /// Why this certificate may not sign a C2PA claim; nil when it may: an X.509 v3 certificate
    /// that is not a CA, whose key usage allows digital signatures, and whose extended key usage
    /// names a use C2PA allows and not "any use".
    var signerProfileProblem: String? {
        defer { ERR_clear_error() }
        // The flags make OpenSSL parse the extensions; a malformed one marks the certificate invalid.
        let flags = X509_get_extension_flags(pointer)
        if flags & UInt32(EXFLAG_INVALID) != 0 { return "its extensions cannot be read" }
        guard X509_get_version(pointer) == 2 else { return "it is not an X.509 version 3 certificate" }
        // Basic constraints CA:TRUE, whatever the key usage says (OpenSSL's check alone lets a CA
        // without keyCertSign pass), or a certificate OpenSSL counts as a CA's.
        if flags & UInt32(EXFLAG_CA) != 0 || X509_check_ca(pointer) != 0 {
            return "it is a CA's certificate (it may issue certificates), not a signer's"
        }
        guard flags & UInt32(EXFLAG_KUSAGE) != 0 else { return "it has no key usage" }
        guard X509_get_key_usage(pointer) & UInt32(KU_DIGITAL_SIGNATURE) != 0 else { return "its key usage does not allow digital signatures" }
        guard flags & UInt32(EXFLAG_XKUSAGE) != 0, let usages = extendedKeyUsages else { return "it has no extended key usage" }
        if usages.contains(Self.anyUsage) { return "its extended key usage allows any use (anyExtendedKeyUsage)" }
        guard usages.contains(where: { usage in Self.signerUsages.contains { $0.oid == usage } }) else {
            let names = usages.map { usage in Self.knownUsageNames[usage] ?? usage }
            return "its extended key usage (\(names.joined(separator: ", "))) is not one C2PA readers accept for a signer "
                + "(emailProtection, timeStamping or OCSPSigning)"
        }
        return nil
    }

    private static let knownUsageNames: [String: String] = Dictionary(uniqueKeysWithValues: signerUsages.map { ($0.oid, $0.name) }
        + [("1.3.6.1.5.5.7.3.1", "serverAuth"), ("1.3.6.1.5.5.7.3.2", "clientAuth"), ("1.3.6.1.5.5.7.3.3", "codeSigning"),
           ("1.3.6.1.5.5.7.3.36", "documentSigning"), ("1.3.6.1.4.1.62558.2.1", "C2PA claim signing")])

    /// The extended key usages, as dotted OIDs; nil when the extension is missing or unreadable.
    var extendedKeyUsages: [String]? {
        guard let raw = X509_get_ext_d2i(pointer, NID_ext_key_usage, nil, nil) else { return nil }
        let usages = OpaquePointer(raw)
        defer { EXTENDED_KEY_USAGE_free(usages) }
        var oids: [String] = []
        for index in 0..<OPENSSL_sk_num(usages) {
            guard let object = OPENSSL_sk_value(usages, index) else { return nil }
            var text = [CChar](repeating: 0, count: 128)
            let length = OBJ_obj2txt(&text, Int32(text.count), OpaquePointer(object), 1)
            guard length > 0, Int(length) < text.count else { return nil }
            oids.append(String(decoding: text.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return oids
    }
}
