import CCrypto

/// SHA-256 through libcrypto.
enum Digest {
    static func sha256(_ bytes: [UInt8]) throws(ProvenanceError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let done = bytes.withUnsafeBufferPointer { EVP_Digest($0.baseAddress, $0.count, &digest, &length, EVP_sha256(), nil) }
        guard done == 1, length == 32 else { throw .crypto("compute a SHA-256") }
        return digest
    }
}
