internal import CCrypto

#if canImport(Glibc)
import Glibc
#endif

/// One RFC 3161 exchange with a time-stamp authority, all through OpenSSL: the request (SHA-256 of
/// the message, a nonce, the TSA's certificates asked for), the HTTP POST (OpenSSL's own client,
/// with a deadline for the whole exchange), and the response checked against the request.
enum TimeStampQuery {
    /// The largest answer read: a token with its certificates is a few kilobytes.
    static let responseLimit = 256 * 1024

    /// The DER TimeStampToken (a CMS ContentInfo) the TSA at `url` signs over `message`, asked for
    /// within `timeout` seconds. Throws what went wrong, in words.
    static func token(for message: [UInt8], url: String, timeout: Int) throws(TimeStampFailure) -> [UInt8] {
        guard let digest = Digest.sha256(message, ranges: [message.indices]), let nonce = CryptoKey.random(8) else {
            throw .refused("OpenSSL could not make the request")
        }
        guard let request = TS_REQ_new() else { throw .refused("OpenSSL could not make the request") }
        defer { TS_REQ_free(request) }
        guard fill(request, digest: digest, nonce: nonce) else { throw .refused("OpenSSL could not make the request") }
        let answer = try post(request, url: url, timeout: timeout)
        defer { BIO_free_all(answer) }
        guard let response = d2i_TS_RESP_bio(answer, nil) else { throw .refused("its answer is not an RFC 3161 time-stamp response") }
        defer { TS_RESP_free(response) }
        // The answer must be granted, of version 1, for this digest and this nonce.
        guard let context = TS_REQ_to_TS_VERIFY_CTX(request, nil) else { throw .refused("OpenSSL could not check the answer") }
        defer { TS_VERIFY_CTX_free(context) }
        TS_VERIFY_CTX_set_flags(context, Int32(TS_VFY_VERSION | TS_VFY_IMPRINT | TS_VFY_NONCE))
        guard TS_RESP_verify_response(context, response) == 1 else {
            throw .refused("its answer does not grant this request (\(OpenSSLError.last()))")
        }
        guard let token = TS_RESP_get_token(response) else { throw .refused("its answer holds no time-stamp token") }
        let length = i2d_PKCS7(token, nil)
        guard length > 0 else { throw .refused("its time-stamp token cannot be encoded") }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var out = buffer.baseAddress
            _ = i2d_PKCS7(token, &out)
        }
        return der
    }

    private static func fill(_ request: OpaquePointer, digest: [UInt8], nonce: [UInt8]) -> Bool {
        guard let imprint = TS_MSG_IMPRINT_new() else { return false }
        defer { TS_MSG_IMPRINT_free(imprint) }
        guard let algorithm = X509_ALGOR_new() else { return false }
        defer { X509_ALGOR_free(algorithm) }
        X509_ALGOR_set_md(algorithm, EVP_sha256())
        var digest = digest
        guard TS_REQ_set_version(request, 1) == 1, TS_MSG_IMPRINT_set_algo(imprint, algorithm) == 1,
              TS_MSG_IMPRINT_set_msg(imprint, &digest, Int32(digest.count)) == 1,
              TS_REQ_set_msg_imprint(request, imprint) == 1, TS_REQ_set_cert_req(request, 1) == 1 else { return false }
        // The setters copy what they are given.
        guard let number = nonce.withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, Int32($0.count), nil) }) else { return false }
        defer { BN_free(number) }
        guard let integer = BN_to_ASN1_INTEGER(number, nil) else { return false }
        defer { ASN1_INTEGER_free(integer) }
        return TS_REQ_set_nonce(request, integer) == 1
    }

    /// POSTs `request` to `url`; the answer's body as a memory BIO the caller frees.
    private static func post(_ request: OpaquePointer, url: String, timeout: Int) throws(TimeStampFailure) -> OpaquePointer {
        var useTLS: Int32 = 0
        var host: UnsafeMutablePointer<CChar>?, port: UnsafeMutablePointer<CChar>?, path: UnsafeMutablePointer<CChar>?
        defer {
            CRYPTO_free(host, #file, #line)
            CRYPTO_free(port, #file, #line)
            CRYPTO_free(path, #file, #line)
        }
        guard OSSL_HTTP_parse_url(url, &useTLS, nil, &host, &port, nil, &path, nil, nil) == 1 else {
            ERR_clear_error()
            throw .refused("it is not an http:// address")
        }
        // Tokens are signed, so TSAs serve them over plain HTTP; TLS would need libssl for nothing.
        guard useTLS == 0 else { throw .refused("stampcam asks TSAs over http:// (a time-stamp is signed, so plain HTTP is safe); give its http:// address") }
        guard let body = BIO_new(BIO_s_mem()) else { throw .refused("OpenSSL could not make the request") }
        defer { BIO_free(body) }
        guard i2d_TS_REQ_bio(body, request) == 1 else { throw .refused("OpenSSL could not encode the request") }
        ERR_clear_error()
        // The proxy of http_proxy / no_proxy in the environment, as OpenSSL reads them.
        guard let answer = OSSL_HTTP_transfer(nil, host, port, path, 0, nil, nil, nil, nil, nil, nil, 0, nil,
                                              "application/timestamp-query", body, "application/timestamp-reply", 1,
                                              responseLimit, Int32(clamping: timeout), 0) else {
            throw .unreachable(OpenSSLError.last())
        }
        ERR_clear_error()
        return answer
    }
}

/// Why no time-stamp was had.
enum TimeStampFailure: Error, Equatable {
    /// No answer in time: down, unreachable, slow.
    case unreachable(String)
    /// An answer that is not a time-stamp for this request.
    case refused(String)
}

/// OpenSSL's error queue, for a message.
enum OpenSSLError {
    /// The reason of the newest error and the detail it carries ("connect error: Connection refused"),
    /// then the queue cleared.
    static func last() -> String {
        defer { ERR_clear_error() }
        var data: UnsafePointer<CChar>?
        var flags: Int32 = 0
        let code = ERR_peek_last_error_data(&data, &flags)
        guard code != 0 else { return "no answer" }
        let reason = ERR_reason_error_string(code).map { String(cString: $0) } ?? "error \(code)"
        let detail = data.map { String(cString: $0) } ?? ""
        return detail.isEmpty ? reason : reason + ": " + detail
    }
}

extension TimeStampFailure {
    /// What happened, after the authority's address: "did not answer (connect error: …)".
    var words: String {
        switch self {
        case .unreachable(let reason): return "did not answer (\(reason))"
        case .refused(let reason): return "gave no usable time-stamp: \(reason)"
        }
    }
}
