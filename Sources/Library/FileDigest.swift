/// Fingerprints of files, so a record can say which original it was made from.
public enum FileDigest {
    /// The SHA-256 of `bytes` as 64 lowercase hex digits.
    public static func sha256(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { sha256($0) }
    }

    /// The SHA-256 of bytes lent for this call.
    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> String {
        SHA256.hex(bytes)
    }
}
