/// Why a location source cannot be used. Facts only; the command line adds its advice.
public enum LocationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing answers at gpsd's address.
    case gpsdUnavailable(address: String, reason: String)
    /// gpsd went away while we listened.
    case gpsdLost(reason: String)

    public var description: String {
        switch self {
        case .gpsdUnavailable(let address, let reason): return "gpsd does not answer at \(address): \(reason)"
        case .gpsdLost(let reason): return "the connection to gpsd was lost: \(reason)"
        }
    }
}
