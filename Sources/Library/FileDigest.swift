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

    /// The SHA-256 of the bytes `parts` hands to the function it is given, in order, as one input
    /// (a file's picture data between its metadata segments, say).
    public static func sha256(parts: ((UnsafeRawBufferPointer) -> Void) -> Void) -> String {
        guard let context = SHA256Context() else { return "" }
        parts { context.update($0) }
        return context.finish()
    }
}
