internal import CCrypto
import Values

#if canImport(Glibc)
import Glibc
#endif

/// Owns one OpenSSL X.509 certificate. It is only read after it is made, and OpenSSL (since 1.1)
/// fills a certificate's cached extensions under its own lock, so it may be shared.
final class X509Certificate: @unchecked Sendable {
    // Only read after it is signed; OpenSSL allows that from several threads.
    let pointer: OpaquePointer

    init(owning pointer: OpaquePointer) { self.pointer = pointer }
    deinit { X509_free(pointer) }

    /// Every certificate in PEM text, in order; nil when the text holds something else or a
    /// certificate is cut short.
    static func read(pem: [UInt8]) -> [X509Certificate]? {
        let chain = Memory.withReader(pem) { bio -> [X509Certificate]? in
            var chain: [X509Certificate] = []
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) { chain.append(X509Certificate(owning: certificate)) }
            // Running out of "-----BEGIN" lines is the normal end; any other error is a damaged text.
            let clean = ERR_GET_REASON(ERR_peek_last_error()) == PEM_R_NO_START_LINE
            return clean ? chain : nil
        }
        ERR_clear_error()
        return chain
    }

    /// What a new certificate says; the issuer signs it.
    struct Profile {
        var commonName: String
        /// The subject's O=: the organisation whose photos it signs.
        var organization = "stampcam"
        var days: Int
        /// Ends the validity sooner than `days` (an issuer's own end: a certificate never outlives it).
        var notAfter: Int? = nil
        var isAuthority: Bool
        /// A web server's names (`DNS:localhost`, `IP:192.168.1.5`): a TLS server certificate, not a signer's.
        var serverNames: [String] = []
    }

    /// A new certificate for `key`, valid from `now` for `profile.days`, signed by `issuer` (nil:
    /// self-signed with `key`).
    static func make(_ profile: Profile, key: CryptoKey, issuer: (certificate: X509Certificate, key: CryptoKey)?,
                     now: Int) -> X509Certificate? {
        guard let x509 = X509_new() else { return nil }
        let certificate = X509Certificate(owning: x509)
        var start = time_t(now)
        guard let name = X509_NAME_new() else { return nil }
        defer { X509_NAME_free(name) }
        // A positive serial of 16 random bytes, as CAs without a database number them.
        guard var serial = CryptoKey.random(16) else { return nil }
        serial[0] &= 0x7f
        let serialSet = serial.withUnsafeBufferPointer { bytes -> Bool in
            guard let number = BN_bin2bn(bytes.baseAddress, Int32(bytes.count), nil) else { return false }
            defer { BN_free(number) }
            return BN_to_ASN1_INTEGER(number, X509_get_serialNumber(x509)) != nil
        }
        guard serialSet,
              X509_set_version(x509, 2) == 1,  // X.509 v3, which extensions need
              X509_time_adj_ex(X509_getm_notBefore(x509), 0, 0, &start) != nil,
              X509_time_adj_ex(X509_getm_notAfter(x509), 0, min(profile.days * 86400, (profile.notAfter ?? Int.max) - now), &start) != nil,
              X509_set_pubkey(x509, key.pointer) == 1,
              X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, profile.organization, -1, -1, 0) == 1,
              X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, profile.commonName, -1, -1, 0) == 1,
              X509_set_subject_name(x509, name) == 1,
              X509_set_issuer_name(x509, issuer.map { X509_get_subject_name($0.certificate.pointer) } ?? name) == 1
        else { return nil }
        // The C2PA certificate profile: a CA that only issues, a signer that only signs, both with key ids.
        let extensions: [(Int32, String)] = profile.isAuthority
            ? [(NID_basic_constraints, "critical,CA:TRUE"), (NID_key_usage, "critical,keyCertSign,cRLSign"),
               (NID_subject_key_identifier, "hash"), (NID_authority_key_identifier, "keyid:always")]
            : !profile.serverNames.isEmpty
            ? [(NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature"),
               (NID_ext_key_usage, "serverAuth"), (NID_subject_alt_name, profile.serverNames.joined(separator: ",")),
               (NID_subject_key_identifier, "hash")]
            : [(NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature"),
               (NID_ext_key_usage, "emailProtection,1.3.6.1.5.5.7.3.36"),
               (NID_subject_key_identifier, "hash"), (NID_authority_key_identifier, "keyid:always")]
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.certificate.pointer ?? x509, x509, nil, nil, 0)
        for (nid, value) in extensions {
            guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else { return nil }
            defer { X509_EXTENSION_free(ext) }
            guard X509_add_ext(x509, ext, -1) == 1 else { return nil }
        }
        guard X509_sign(x509, (issuer?.key ?? key).pointer, EVP_sha256()) > 0 else { return nil }
        return certificate
    }

    var der: [UInt8] {
        let length = i2d_X509(pointer, nil)
        guard length > 0 else { return [] }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var out = buffer.baseAddress
            _ = i2d_X509(pointer, &out)
        }
        return der
    }

    var pem: [UInt8]? { Memory.write { PEM_write_bio_X509($0, pointer) == 1 } }

    var subject: String { Self.name(X509_get_subject_name(pointer)) }
    var issuer: String { Self.name(X509_get_issuer_name(pointer)) }

    /// SHA-256 of the DER form, as `openssl x509 -fingerprint -sha256` writes it (AB:CD:…).
    var fingerprint: String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard X509_digest(pointer, EVP_sha256(), &digest, &length) == 1 else { return "" }
        return digest.prefix(Int(length)).map { Hex.padded($0, digits: 2, uppercase: true) }.joined(separator: ":")
    }

    var notBefore: String { Self.iso8601(X509_get0_notBefore(pointer)) }
    var notAfter: String { Self.iso8601(X509_get0_notAfter(pointer)) }

    /// The end of the validity period, in seconds since the epoch.
    var notAfterSeconds: Int { Self.seconds(X509_get0_notAfter(pointer)) ?? 0 }

    /// The first value of the subject's `field` (`O`, `CN`), as UTF-8 text; nil without one.
    func subjectField(_ field: Int32) -> String? {
        let name = X509_get_subject_name(pointer)
        let index = X509_NAME_get_index_by_NID(name, field, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry) else { return nil }
        var utf8: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&utf8, data)
        guard length >= 0, let utf8 else { return nil }
        defer { CRYPTO_free(utf8, #file, #line) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
    }

    /// The organisation the subject names (O=); nil when it names none.
    var organization: String? { subjectField(NID_organizationName).flatMap { $0.isEmpty ? nil : $0 } }
    var commonName: String? { subjectField(NID_commonName) }

    /// Whether `now` lies before the start (negative), inside (zero) or after the end (positive).
    func validity(at now: Int) -> Int {
        var moment = time_t(now)
        if X509_cmp_time(X509_get0_notBefore(pointer), &moment) > 0 { return -1 }
        if X509_cmp_time(X509_get0_notAfter(pointer), &moment) < 0 { return 1 }
        return 0
    }

    /// Whether `key` is the private key of this certificate's public key.
    func matches(_ key: CryptoKey) -> Bool {
        defer { ERR_clear_error() }
        return X509_check_private_key(pointer, key.pointer) == 1
    }

    /// Whether `issuer` names this certificate's issuer and its key signed it.
    func isIssued(by issuer: X509Certificate) -> Bool {
        defer { ERR_clear_error() }
        guard X509_check_issued(issuer.pointer, pointer) == X509_V_OK, let key = X509_get0_pubkey(issuer.pointer) else { return false }
        return X509_verify(pointer, key) == 1
    }

    /// A name in RFC 2253 form (`CN=…,O=…`).
    static func name(_ name: OpaquePointer?) -> String {
        guard let name else { return "" }
        let bytes = Memory.write { X509_NAME_print_ex($0, name, 0, stampcam_rfc2253()) >= 0 }
        return bytes.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int? {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Int(timegm(&parts))
    }

    private static func iso8601(_ time: UnsafePointer<ASN1_TIME>?) -> String {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return "" }
        let date = [Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday)]
        let clock = [Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)]
        return date.map { decimal($0, $0 > 99 ? 4 : 2) }.joined(separator: "-") + "T"
            + clock.map { decimal($0, 2) }.joined(separator: ":") + "Z"
    }

    private static func decimal(_ value: Int, _ digits: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

