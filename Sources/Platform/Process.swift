#if canImport(Glibc)
import Glibc
#endif

/// Process ids: this process's, and whether another's is still running.
public enum ProcessID {
    public static var current: Int32 { getpid() }

    /// Whether a process with this id exists (one we may not signal counts: it is running).
    public static func isAlive(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
}

/// The command line and environment this process was started with, byte-exact (see `PathEncoding`).
public enum ProcessEnvironment {
    /// The arguments after the program's name.
    public static var arguments: [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return PathEncoding.decode(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
    }

    /// The environment variables.
    public static var current: [String: String] {
        var variables: [String: String] = [:]
        var index = 0
        while let entry = environ[index] {
            let bytes = UnsafeRawBufferPointer(start: entry, count: strlen(entry))
            // Split at the first '=' byte, which no multi-byte UTF-8 sequence contains.
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                variables[PathEncoding.decode(bytes[..<equals])] = PathEncoding.decode(bytes[(equals + 1)...])
            }
            index += 1
        }
        return variables
    }
}

extension ProcessEnvironment {
    /// `$HOME`, else the home folder in the password database, else `/`.
    public static func home(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir { return String(cString: folder) }
        return "/"
    }
}
