/// sysexits-style exit codes (see DESIGN.md §3).
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// `log --check` found photos moved, missing or changed (like diff and cmp).
    case differences = 1
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case cannotCreate = 73
    case ioError = 74
    case interrupted = 130
}
