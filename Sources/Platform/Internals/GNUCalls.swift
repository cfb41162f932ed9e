import CPlatform

/// glibc calls declared only under _GNU_SOURCE, through CPlatform.
enum GNUCalls {
    /// How many CPUs the calling thread's affinity mask holds (a new thread inherits its
    /// creator's); nil when it cannot be asked.
    static var affinityCPUCount: Int? {
        let count = sc_affinity_cpu_count()
        return count > 0 ? Int(count) : nil
    }

    /// Gives the memory every malloc arena holds free back to the system (glibc keeps it otherwise).
    static func trimHeap() { sc_malloc_trim() }

    /// A pipe whose ends are closed on exec; nil with errno set when none can be made.
    static func pipeClosedOnExec() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [0, 0]
        guard sc_pipe_cloexec(&ends) == 0 else { return nil }
        return (ends[0], ends[1])
    }

    /// A file in memory only (memfd_create), closed on exec; -1 with errno set when none can be made.
    static func memoryFile(_ name: String) -> Int32 { sc_memfd(name) }

    /// renameat2 with RENAME_NOREPLACE: 0, or -1 with errno set.
    static func renameNoReplace(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 {
        sc_rename_noreplace(from, to)
    }

    /// The magic number of the file system holding `path` (statfs's f_type); nil when it cannot be asked.
    static func fileSystemMagic(_ path: UnsafePointer<CChar>) -> UInt64? {
        let magic = sc_filesystem_magic(path)
        return magic < 0 ? nil : UInt64(magic)
    }
}
