internal import CCrypto

/// SHA-256 through libcrypto.
enum Digest {
    static func sha256(_ bytes: [UInt8]) throws(ProvenanceError) -> [UInt8] {
        guard let digest = sha256(bytes, ranges: [bytes.indices]) else { throw .crypto("compute a SHA-256") }
        return digest
    }

    /// SHA-256 of `ranges` of `bytes` one after another.
    static func sha256(_ bytes: [UInt8], ranges: [Range<Int>]) -> [UInt8]? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { return nil }
        let fed = bytes.withUnsafeBufferPointer { buffer in
            ranges.allSatisfy { $0.isEmpty || EVP_DigestUpdate(context, buffer.baseAddress! + $0.lowerBound, $0.count) == 1 }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard fed, EVP_DigestFinal_ex(context, &digest, &length) == 1 else { return nil }
        return digest
    }
}
