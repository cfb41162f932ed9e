internal import CCrypto

/// What a verifier asks of a certificate: read it from DER, check a signature with its key, follow
/// its chain to a trusted one.
extension X509Certificate {
    /// The certificate in DER bytes (COSE's x5chain); nil when they are anything else or have bytes left over.
    static func read(der: [UInt8]) -> X509Certificate? {
        defer { ERR_clear_error() }
        return der.withUnsafeBufferPointer { buffer -> X509Certificate? in
            var start = buffer.baseAddress
            guard let x509 = d2i_X509(nil, &start, buffer.count) else { return nil }
            let certificate = X509Certificate(owning: x509)
            return start == buffer.baseAddress.map({ $0 + buffer.count }) ? certificate : nil
        }
    }

    /// Whether the key is EC P-256, the one ES256 uses.
    var hasP256Key: Bool {
        guard let key = X509_get0_pubkey(pointer), EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return false }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else { return false }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1"
    }

    /// Whether `signature` (ES256: r‖s, 32 bytes each) is this certificate's key's signature of `message`.
    func verifiesES256(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        defer { ERR_clear_error() }
        guard signature.count == 64, hasP256Key, let key = X509_get0_pubkey(pointer), let der = Self.derSignature(signature),
              let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return der.withUnsafeBufferPointer { signed in
            message.withUnsafeBufferPointer { EVP_DigestVerify(context, signed.baseAddress, signed.count, $0.baseAddress, $0.count) }
        } == 1
    }

    /// r‖s as the DER SEQUENCE OpenSSL verifies.
    private static func derSignature(_ raw: [UInt8]) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var out = buffer.baseAddress
            _ = i2d_ECDSA_SIG(signature, &out)
        }
        return der
    }

    /// Whether this certificate chains, through `intermediates`, to one of `anchors` (any of them
    /// may be the anchor, even a signer's own certificate). Validity periods are the caller's
    /// question: a verifier names an expired certificate apart from an untrusted one.
    func chains(to anchors: [X509Certificate], through intermediates: [X509Certificate]) -> Bool {
        defer { ERR_clear_error() }
        guard !anchors.isEmpty, let store = X509_STORE_new() else { return false }
        defer { X509_STORE_free(store) }
        for anchor in anchors where X509_STORE_add_cert(store, anchor.pointer) != 1 { return false }
        guard let untrusted = OPENSSL_sk_new_null() else { return false }
        defer { OPENSSL_sk_free(untrusted) }  // the certificates stay their owners'
        for certificate in intermediates where OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate.pointer)) == 0 { return false }
        guard let context = X509_STORE_CTX_new() else { return false }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, pointer, untrusted) == 1 else { return false }
        X509_STORE_CTX_set_flags(context, UInt(X509_V_FLAG_NO_CHECK_TIME | X509_V_FLAG_PARTIAL_CHAIN))
        return X509_verify_cert(context) == 1
    }
}
