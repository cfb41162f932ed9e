import Platform

/// Why a location source cannot be used. Facts only; the command line adds its advice.
public enum LocationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing answers at gpsd's address.
    case gpsdUnavailable(address: String, reason: String)
    /// gpsd went away while we listened.
    case gpsdLost(reason: String)
    /// libgps could not be loaded.
    case libraryMissing(MissingLibrary)
    /// PROJ could not give a grid reference (its database missing, most likely).
    case projection(String)

    public var description: String {
        switch self {
        case .gpsdUnavailable(let address, let reason): return "gpsd does not answer at \(address): \(reason)"
        case .gpsdLost(let reason): return "the connection to gpsd was lost: \(reason)"
        case .libraryMissing(let missing): return missing.description
        case .projection(let reason): return reason
        }
    }
}
