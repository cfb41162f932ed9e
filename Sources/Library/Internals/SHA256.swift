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
