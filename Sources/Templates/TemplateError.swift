/// A template that cannot be used. The message names the file and the JSON path:
/// `site.json: blocks[1].font.size: expected a number, found a string`.
public struct TemplateError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var path: String
    public var problem: String
    /// The variable that has no value, when that is the problem (see `TextTemplate.Problem`).
    public var missingValue: String?

    public init(file: String, path: String, problem: String, missingValue: String? = nil) {
        self.file = file
        self.path = path
        self.problem = problem
        self.missingValue = missingValue
    }

    public var description: String {
        path.isEmpty ? "\(file): \(problem)" : "\(file): \(path): \(problem)"
    }
}
