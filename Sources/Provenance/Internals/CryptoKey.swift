internal import CCrypto

/// Owns one OpenSSL private key (EVP_PKEY). It is only read after it is made, and OpenSSL allows
/// signing with one key from several threads at once, so it may be shared.
final class CryptoKey: @unchecked Sendable {
    let pointer: OpaquePointer

    private init(owning pointer: OpaquePointer) { self.pointer = pointer }
    deinit { EVP_PKEY_free(pointer) }

    /// A new P-256 key; nil only when OpenSSL cannot make one.
    static func makeP256() -> CryptoKey? {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
              EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
              EVP_PKEY_keygen(context, &key) == 1, let key else { return nil }
        return CryptoKey(owning: key)
    }

    /// The first private key in PEM text; nil when there is none.
    static func read(pem: [UInt8]) -> CryptoKey? {
        let key = Memory.withReader(pem) { PEM_read_bio_PrivateKey($0, nil, nil, nil) }
        ERR_clear_error()
        return key.map(CryptoKey.init(owning:))
    }

    /// "EC prime256v1", "RSA", "ED25519" …: what the key is, for a message.
    var algorithm: String {
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        if EVP_PKEY_get_base_id(pointer) == EVP_PKEY_EC, EVP_PKEY_get_group_name(pointer, &name, name.count, &length) == 1 {
            return "EC " + String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return EVP_PKEY_get0_type_name(pointer).map { String(cString: $0) } ?? "unknown"
    }

    var isP256: Bool { algorithm == "EC prime256v1" }

    /// PKCS #8 PEM, unencrypted (the file's mode protects it).
    var pem: [UInt8]? {
        Memory.write { PEM_write_bio_PrivateKey($0, pointer, nil, nil, 0, nil, nil) == 1 }
    }

    /// ECDSA with SHA-256 over `bytes`, DER-encoded (SEQUENCE of r and s).
    func signDER(_ bytes: [UInt8]) -> [UInt8]? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { return nil }
        var length = 0
        guard bytes.withUnsafeBufferPointer({ EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }) == 1 else { return nil }
        var signature = [UInt8](repeating: 0, count: length)
        let done = signature.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { EVP_DigestSign(context, out.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        guard done == 1 else { return nil }
        return Array(signature.prefix(length))
    }

    /// A DER ECDSA signature as r‖s, each padded to `size` bytes (COSE's form).
    static func raw(fromDER der: [UInt8], size: Int) -> [UInt8]? {
        let signature = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var start = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &start, buffer.count)
        }
        guard let signature else { return nil }
        defer { ECDSA_SIG_free(signature) }
        var raw = [UInt8](repeating: 0, count: 2 * size)
        let written = raw.withUnsafeMutableBufferPointer { out in
            BN_bn2binpad(ECDSA_SIG_get0_r(signature), out.baseAddress, Int32(size)) == size
                && BN_bn2binpad(ECDSA_SIG_get0_s(signature), out.baseAddress! + size, Int32(size)) == size
        }
        return written ? raw : nil
    }

    /// `count` random bytes from OpenSSL's generator.
    static func random(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        return RAND_bytes(&bytes, Int32(count)) == 1 ? bytes : nil
    }
}

/// OpenSSL memory BIOs: text in, text out.
enum Memory {
    static func withReader<Result>(_ bytes: [UInt8], _ body: (OpaquePointer) -> Result?) -> Result? {
        bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// What `body` writes into a memory BIO; nil when it fails.
    static func write(_ body: (OpaquePointer) -> Bool) -> [UInt8]? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard body(bio) else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        let length = stampcam_bio_mem_data(bio, &data)
        guard length >= 0, let data else { return length == 0 ? [] : nil }
        return UnsafeRawBufferPointer(start: data, count: length).map { $0 }
    }
}
