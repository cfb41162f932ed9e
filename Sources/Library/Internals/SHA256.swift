import CCrypto
import Values

/// OpenSSL's SHA-256 (libcrypto, which uses the CPU's SHA instructions where it has them).
enum SHA256 {
    static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let done = digest.withUnsafeMutableBufferPointer { out in
            EVP_Digest(bytes.baseAddress ?? UnsafeRawPointer(out.baseAddress!), bytes.count, out.baseAddress, &length, EVP_sha256(), nil)
        }
        // EVP_Digest fails only when memory runs out; an empty fingerprint then matches nothing.
        guard done == 1, length == 32 else { return "" }
        return Hex.lowercase(digest)
    }
}

/// Owns one OpenSSL digest context: SHA-256 over bytes given in parts.
final class SHA256Context {
    private let context: OpaquePointer

    /// nil when memory runs out.
    init?() {
        guard let context = EVP_MD_CTX_new() else { return nil }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            EVP_MD_CTX_free(context)
            return nil
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// 64 lowercase hex digits; empty when OpenSSL failed (it matches nothing).
    func finish() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let done = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        return done == 1 && length == 32 ? Hex.lowercase(digest) : ""
    }
}
