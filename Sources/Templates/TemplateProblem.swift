/// Something found wrong with a template before (or instead of) stamping a photo: an error makes the
/// template unusable, a warning does not. Names the file and the JSON path like `TemplateError`:
/// `site.json: blocks[0].lines[2]: unknown variable {projcet} (did you mean {project}?)`.
public struct TemplateProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: Sendable, Equatable { case error, warning }

    public var severity: Severity
    public var file: String
    public var path: String
    public var problem: String
    /// The variable that has no value, when that is the problem (see `TextTemplate.Problem`).
    public var missingValue: String?

    public init(_ severity: Severity, file: String, path: String, problem: String, missingValue: String? = nil) {
        self.severity = severity
        self.file = file
        self.path = path
        self.problem = problem
        self.missingValue = missingValue
    }

    public var isError: Bool { severity == .error }

    /// The problem as the error a template load throws.
    public var error: TemplateError { TemplateError(file: file, path: path, problem: problem, missingValue: missingValue) }

    /// `site.json: blocks[0].lines[1]: …`, with `warning: ` before a warning's problem.
    public var description: String {
        severity == .error ? error.description
            : TemplateError(file: file, path: path, problem: "warning: " + problem).description
    }
}
