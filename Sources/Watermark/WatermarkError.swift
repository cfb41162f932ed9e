/// Why a stamp could not be drawn.
public enum WatermarkError: Error, Equatable, CustomStringConvertible {
    case fontConfiguration(path: String)
    case logo(path: String, reason: String)

    public var description: String {
        switch self {
        case .fontConfiguration(let path):
            return "\(path): cannot load the font configuration (is stampcam installed completely?)"
        case .logo(let path, let reason):
            return "\(path): cannot use this logo: \(reason)"
        }
    }
}
