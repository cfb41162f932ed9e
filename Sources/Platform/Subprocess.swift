#if canImport(Glibc)
import Glibc
#endif

/// Runs another program directly — no shell, so nothing in an argument (a file name with `$(…)`,
/// quotes or `;`) is ever interpreted — and waits for it.
public enum Subprocess {
    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        public var succeeded: Bool { self == .exited(0) }

        public var description: String {
            switch self {
            case .exited(let code): return "exited with \(code)"
            case .signalled(let signal): return "was killed by signal \(signal)"
            }
        }
    }

    /// Runs `arguments[0]` (looked up in PATH) with `arguments`; `environment` is added to this
    /// process's. The child gets the default signal handling and an empty signal mask, whatever ours is.
    public static func run(_ arguments: [String], adding environment: [String: String] = [:]) throws(Errno) -> Termination {
        try wait(try spawn(arguments, adding: environment))
    }

    /// Starts `arguments[0]` like `run` without waiting; its output and errors go to the files
    /// named (created or truncated), else where ours go. Returns the process id for `wait`.
    public static func spawn(_ arguments: [String], adding environment: [String: String] = [:],
                             output: String? = nil, errors: String? = nil) throws(Errno) -> Int32 {
        guard !arguments.isEmpty else { throw .invalid }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, path) in [(Int32(1), output), (Int32(2), errors)] {
            guard let path else { continue }
            _ = FilePath(path).withCString {
                posix_spawn_file_actions_addopen(&actions, descriptor, $0, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), empty = sigset_t()
        sigemptyset(&defaults)
        sigemptyset(&empty)
        for signal in Signals.Signal.allCases { sigaddset(&defaults, signal.rawValue) }
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGXFSZ)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdupBytes(PathEncoding.encode($0)) }
        var inherited: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let key = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if environment[key] == nil { inherited.append(text) }
            index += 1
        }
        let envp = inherited.map { strdupBytes(Array($0.utf8)) }
            + environment.sorted { $0.key < $1.key }.map { strdupBytes(Array("\($0.key)=".utf8) + PathEncoding.encode($0.value)) }
        defer {
            for pointer in argv + envp { pointer?.deallocate() }
        }
        var pid = pid_t()
        let argvList: [UnsafeMutablePointer<CChar>?] = argv + [nil]
        let envList: [UnsafeMutablePointer<CChar>?] = envp + [nil]
        let status = posix_spawnp(&pid, argv[0]!, &actions, &attributes, argvList, envList)
        guard status == 0 else { throw Errno(status) }
        return pid
    }

    /// Waits for a process `spawn` started.
    public static func wait(_ pid: Int32) throws(Errno) -> Termination {
        var waitStatus: Int32 = 0
        _ = try Errno.retrying { () throws(Errno) in try Errno.check(waitpid(pid, &waitStatus, 0)) }
        // The WIFEXITED/WEXITSTATUS macros, spelled out.
        let signal = waitStatus & 0x7F
        return signal == 0 ? .exited((waitStatus >> 8) & 0xFF) : .signalled(signal)
    }

    /// A malloc'd NUL-terminated copy of `bytes`.
    private static func strdupBytes(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        pointer[bytes.count] = 0
        return pointer
    }
}
