internal import CCrypto

#if canImport(Glibc)
import Glibc
#endif

/// Checks an RFC 3161 TimeStampToken (DER CMS ContentInfo) through OpenSSL's TS_VERIFY_CTX: that
/// it stamps `message`, when, who signed it, and whether that TSA's certificate chain — valid at the
/// stamped time, for time-stamping — reaches one of the anchors.
enum TimeStampToken {
    static func check(_ der: [UInt8], message: [UInt8], anchors: [X509Certificate]) -> TimeStamp {
        defer { ERR_clear_error() }
        let parsed = der.withUnsafeBufferPointer { buffer -> UnsafeMutablePointer<PKCS7>? in
            var start = buffer.baseAddress
            guard let token = d2i_PKCS7(nil, &start, buffer.count) else { return nil }
            guard start == buffer.baseAddress.map({ $0 + buffer.count }) else {
                PKCS7_free(token)
                return nil
            }
            return token
        }
        guard let token = parsed else { return TimeStamp(problem: "the time-stamp is not a readable RFC 3161 token") }
        defer { PKCS7_free(token) }
        guard let info = PKCS7_to_TS_TST_INFO(token) else { return TimeStamp(problem: "the time-stamp holds no time-stamp information") }
        defer { TS_TST_INFO_free(info) }
        guard let time = X509Certificate.seconds(TS_TST_INFO_get_time(info)) else { return TimeStamp(problem: "the time-stamp's time is unreadable") }
        var stamp = TimeStamp(time: time, authority: signerName(token))

        // It must stamp this message: its version and imprint, whoever signed it.
        let stampsMessage = message.withUnsafeBufferPointer { buffer -> Bool in
            guard let context = TS_VERIFY_CTX_new() else { return false }
            defer { TS_VERIFY_CTX_free(context) }  // frees the data BIO with it
            TS_VERIFY_CTX_set_flags(context, Int32(TS_VFY_VERSION | TS_VFY_DATA))
            guard let data = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return false }
            TS_VERIFY_CTX_set_data(context, data)
            return TS_RESP_verify_token(context, token) == 1
        }
        guard stampsMessage else {
            stamp.problem = "the time-stamp is for other data than this signature"
            return stamp
        }
        stamp.matches = true
        guard !anchors.isEmpty else {
            stamp.problem = "its authority \(stamp.authority ?? "(unnamed)") is not trusted (give its CA with --tsa-trust)"
            return stamp
        }
        // Its signature, and its signer's chain to an anchor as it was at the stamped time, for time-stamping.
        guard let context = TS_VERIFY_CTX_new(), let store = X509_STORE_new() else { return stamp }
        defer { TS_VERIFY_CTX_free(context) }  // frees the store with it
        TS_VERIFY_CTX_set_store(context, store)
        for anchor in anchors where X509_STORE_add_cert(store, anchor.pointer) != 1 { return stamp }
        X509_STORE_set_flags(store, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        X509_VERIFY_PARAM_set_time(X509_STORE_get0_param(store), time_t(time))
        TS_VERIFY_CTX_set_flags(context, Int32(TS_VFY_SIGNATURE))
        if TS_RESP_verify_token(context, token) == 1 {
            stamp.trusted = true
        } else {
            ERR_clear_error()
            stamp.problem = "its authority \(stamp.authority ?? "(unnamed)") does not chain to a trusted CA for time-stamps at that time (give its CA with --tsa-trust)"
        }
        return stamp
    }

    /// The subject of the certificate that signed the token, when the token carries it.
    private static func signerName(_ token: UnsafeMutablePointer<PKCS7>) -> String? {
        guard let signers = PKCS7_get0_signers(token, nil, 0) else { return nil }
        defer { OPENSSL_sk_free(signers) }  // the certificates stay the token's
        guard OPENSSL_sk_num(signers) > 0, let first = OPENSSL_sk_value(signers, 0) else { return nil }
        return X509Certificate.name(X509_get_subject_name(OpaquePointer(first)))
    }
}
