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
        // takes as long as GLib hashing 2 MB: a run that hashes one photo (a shot) keeps to GLib
        // unless OpenSSL was loaded ahead; a batch or `log --check` moves to OpenSSL once past that.
        // Where libcrypto cannot be opened, GLib's does it all: the same digests.
        let total = hashed.add(bytes.count, ordering: .relaxed).newValue
        let useOpenSSL = (total > Self.openSSLAfter || loadedAhead.load(ordering: .acquiring)) && SHA256.available
        return useOpenSSL ? SHA256.hex(bytes) : GLibChecksum.sha256(bytes)
    }

    /// Loads OpenSSL now, on a thread with time to spare (apply's finisher, while the first photo
    /// is stamped and encoded), so even the first photo's digest is OpenSSL's.
    public static func prepare() {
        if SHA256.available { loadedAhead.store(true, ordering: .releasing) }
    }

    private static let hashed = Atomic<Int>(0)
    private static let loadedAhead = Atomic<Bool>(false)
    static let openSSLAfter = 2_000_000
}
