import Synchronization

/// Fingerprints of files, so a record can say which original it was made from.
public enum FileDigest {
    /// The SHA-256 of `bytes` as 64 lowercase hex digits.
    public static func sha256(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { sha256($0) }
    }

    /// The SHA-256 of bytes lent for this call (a mapped file).
    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> String {
        // OpenSSL hashes six times as fast as GLib with the CPU's SHA instructions, but loading it
        // takes as long as GLib hashing 2 MB: a run that hashes one photo (a shot, a cold apply)
        // keeps to GLib, a batch or `log --check` moves to OpenSSL once past that.
        let total = hashed.add(bytes.count, ordering: .relaxed).newValue
        return total > Self.openSSLAfter ? SHA256.hex(bytes) : GLibChecksum.sha256(bytes)
    }

    private static let hashed = Atomic<Int>(0)
    static let openSSLAfter = 2_000_000
}
