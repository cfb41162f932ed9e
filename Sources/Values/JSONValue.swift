/// A parsed JSON document, kept as a tree so a template, the config file, a GeoJSON file or a request
/// can be read strictly: every key checked, every error named by its path.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON strictly (see `ParseError`): RFC 8259, UTF-8, finite numbers, each key once,
    /// at most `JSONValue.maxDepth` levels of lists and objects.
    public init(parsing bytes: [UInt8]) throws(ParseError) {
        self = try JSONReader.parse(bytes)
    }

    /// How deep lists and objects may nest.
    public static var maxDepth: Int { JSONReader.maxDepth }

    /// Why bytes are not a JSON document we read: the problem in words, where it is (line and column,
    /// counted in characters from 1) and in which value (`blocks[1].lines[0]`, empty at the top).
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var path: String
        public var line: Int
        public var column: Int
        public var problem: String

        public init(path: String, line: Int, column: Int, problem: String) {
            self.path = path
            self.line = line
            self.column = column
            self.problem = problem
        }

        /// `blocks[0].lines[1]: invalid UTF-8 (byte 0xFF); save the file as UTF-8 (line 3, column 14)`
        public var description: String {
            (path.isEmpty ? "" : path + ": ") + "\(problem) (line \(line), column \(column))"
        }
    }

    /// A key as a message shows it in a value's path: as it is, unless it is long or holds control
    /// characters (shortened, controls as `?`).
    public static func displayedKey(_ key: String) -> String { JSONReader.display(key) }

    /// What the value is, for error messages: "a number", "a string" …
    public var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "true or false"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}
