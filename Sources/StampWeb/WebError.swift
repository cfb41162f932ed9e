import Platform

/// Why the browser viewfinder could not start. Facts only: the command line adds its advice.
public enum WebError: Error, Equatable, CustomStringConvertible {
    /// The address is taken, not this machine's, or not allowed.
    case cannotListen(address: String, reason: String)
    /// libmicrohttpd could not be loaded.
    case libraryMissing(MissingLibrary)

    public var description: String {
        switch self {
        case .cannotListen(let address, let reason): return "cannot listen on \(address): \(reason)"
        case .libraryMissing(let missing): return missing.description
        }
    }
}
