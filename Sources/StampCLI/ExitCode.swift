/// sysexits-style exit codes (see DESIGN.md §3).
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// `log --check` found photos moved, missing or changed (like diff and cmp).
    case differences = 1
    /// `verify`, from the mildest outcome to the worst: the signer's chain reaches no trusted CA; a
    /// certificate is outside its validity period; the photo carries no credentials; it changed
    /// since signing; the signature does not hold or the credentials are damaged.
    case notTrusted = 10
    case certificateExpired = 11
    case noCredentials = 12
    case changedSinceSigning = 13
    case signatureInvalid = 14
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case cannotCreate = 73
    case ioError = 74
    case interrupted = 130
}
