/// Why a sites file cannot be used: it cannot be read, or it is not GeoJSON that describes sites.
public enum SiteError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotRead(file: String, reason: String)
    /// `feature`: its index in `features` (nil for a problem with the file as a whole); `path`: the
    /// JSON path inside the feature (`geometry.coordinates[0][3]`), empty when it is the feature.
    case invalid(file: String, feature: Int?, name: String?, path: String, problem: String)

    public var description: String {
        switch self {
        case .cannotRead(let file, let reason):
            return "\(file): cannot read this sites file: \(reason)"
        case .invalid(let file, let feature, let name, let path, let problem):
            var place = file + ": "
            if let feature { place += "feature \(feature)" + (name.map { " (\"\($0)\")" } ?? "") + ": " }
            if !path.isEmpty { place += path + ": " }
            return place + problem
        }
    }
}
