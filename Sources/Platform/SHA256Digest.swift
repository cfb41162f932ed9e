/// SHA-256 for the pure modules (Values' verification code): small inputs, no C in their signatures.
/// Files and pixels are hashed by Library's `FileDigest` (OpenSSL).
public enum SHA256Digest {
    /// The 32 bytes of the SHA-256 of `bytes`; empty only when memory ran out.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { GLibChecksum.sha256($0) }
    }
}
