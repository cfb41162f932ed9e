extension FileSystem {
    /// A new file that lives in memory only and never has a name on a disk: gone with its last
    /// descriptor, which is closed on exec. For bytes that must not be stored (a photo checked for a client).
    public static func memoryFile(_ name: String) throws(Errno) -> Int32 {
        let fd = GNUCalls.memoryFile(name)
        guard fd >= 0 else { throw Errno.current }
        return fd
    }
}
