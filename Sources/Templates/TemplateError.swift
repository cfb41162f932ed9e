/// A template that cannot be used. The message names the file and the JSON path:
/// `site.json: blocks[1].font.size: expected a number, found a string`.
public struct TemplateError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var path: String
    public var problem: String

    public init(file: String, path: String, problem: String) {
        self.file = file
        self.path = path
        self.problem = problem
    }

    public var description: String {
        path.isEmpty ? "\(file): \(problem)" : "\(file): \(path): \(problem)"
    }
}
