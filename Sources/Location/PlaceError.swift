/// Why the place names cannot be used.
public enum PlaceError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotRead(file: String, reason: String)
    case invalid(file: String, problem: String)

    public var description: String {
        switch self {
        case .cannotRead(let file, let reason): return "\(file): cannot read the place names: \(reason)"
        case .invalid(let file, let problem): return "\(file): not a table of places: \(problem)"
        }
    }

    /// A problem found in the table's text (the file is named by the caller).
    struct Problem: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }
}
