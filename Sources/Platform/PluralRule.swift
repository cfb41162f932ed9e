/// A language's plural rule as a catalogue's header writes it (`plural=(n != 1)`, Arabic's six
/// forms …): the C expression gettext evaluates, parsed once into a tree and evaluated for a count.
public indirect enum PluralRule: Sendable, Equatable {
    case count
    case number(UInt64)
    case not(PluralRule)
    case binary(Operator, PluralRule, PluralRule)
    case choice(PluralRule, PluralRule, PluralRule)

    public enum Operator: String, Sendable, CaseIterable {
        case or = "||", and = "&&", equal = "==", notEqual = "!=", lessOrEqual = "<=", greaterOrEqual = ">="
        case less = "<", greater = ">", plus = "+", minus = "-", times = "*", divided = "/", remainder = "%"
    }

    /// English's, German's …: one form for 1, the other for every other count.
    public static let germanic = PluralRule.binary(.notEqual, .count, .number(1))

    public struct Malformed: Error, Equatable, Sendable {
        public let expression: String
    }

    /// Parses `expression`; a rule deeper than a catalogue ever needs is refused.
    public init(_ expression: String) throws(Malformed) {
        var parser = Parser(tokens: Self.tokens(expression), expression: expression)
        let rule = try parser.choice()
        guard parser.position == parser.tokens.count else { throw Malformed(expression: expression) }
        self = rule
    }

    /// Which form `count` takes (0 for the first).
    public func form(for count: Int) -> Int {
        Int(clamping: value(UInt64(count.magnitude)))
    }

    private func value(_ n: UInt64) -> UInt64 {
        switch self {
        case .count: return n
        case .number(let number): return number
        case .not(let rule): return rule.value(n) == 0 ? 1 : 0
        case .choice(let test, let yes, let no): return test.value(n) != 0 ? yes.value(n) : no.value(n)
        case .binary(let op, let left, let right):
            let a = left.value(n), b = right.value(n)
            switch op {
            case .or: return a != 0 || b != 0 ? 1 : 0
            case .and: return a != 0 && b != 0 ? 1 : 0
            case .equal: return a == b ? 1 : 0
            case .notEqual: return a != b ? 1 : 0
            case .less: return a < b ? 1 : 0
            case .greater: return a > b ? 1 : 0
            case .lessOrEqual: return a <= b ? 1 : 0
            case .greaterOrEqual: return a >= b ? 1 : 0
            case .plus: return a &+ b
            case .minus: return a &- b
            case .times: return a &* b
            case .divided: return b == 0 ? 0 : a / b
            case .remainder: return b == 0 ? 0 : a % b
            }
        }
    }

    private static func tokens(_ expression: String) -> [String] {
        var tokens: [String] = [], rest = Substring(expression)
        while let first = rest.first {
            if first.isWhitespace || first == "\\" {
                rest = rest.dropFirst()
            } else if first.isASCII && first.isNumber {
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                tokens.append(String(digits))
                rest = rest.dropFirst(digits.count)
            } else if let op = Operator.allCases.map(\.rawValue).first(where: { $0.count == 2 && rest.hasPrefix($0) }) {
                tokens.append(op)
                rest = rest.dropFirst(2)
            } else {
                tokens.append(String(first))
                rest = rest.dropFirst()
            }
        }
        return tokens
    }

    /// Recursive descent over C's precedence: ?:, ||, &&, == !=, < > <= >=, + -, * / %, !.
    private struct Parser {
        let tokens: [String]
        let expression: String
        var position = 0
        var depth = 0

        static let levels: [[Operator]] = [[.or], [.and], [.equal, .notEqual], [.less, .greater, .lessOrEqual, .greaterOrEqual],
                                           [.plus, .minus], [.times, .divided, .remainder]]

        mutating func take(_ token: String) -> Bool {
            guard position < tokens.count, tokens[position] == token else { return false }
            position += 1
            return true
        }

        mutating func choice() throws(Malformed) -> PluralRule {
            depth += 1
            defer { depth -= 1 }
            guard depth < 64 else { throw Malformed(expression: expression) }
            let test = try binary(level: 0)
            guard take("?") else { return test }
            let yes = try choice()
            guard take(":") else { throw Malformed(expression: expression) }
            return .choice(test, yes, try choice())
        }

        mutating func binary(level: Int) throws(Malformed) -> PluralRule {
            guard level < Self.levels.count else { return try unary() }
            var left = try binary(level: level + 1)
            while let op = Self.levels[level].first(where: { take($0.rawValue) }) {
                left = .binary(op, left, try binary(level: level + 1))
            }
            return left
        }

        mutating func unary() throws(Malformed) -> PluralRule {
            guard position < tokens.count else { throw Malformed(expression: expression) }
            if take("!") {
                depth += 1
                defer { depth -= 1 }
                guard depth < 64 else { throw Malformed(expression: expression) }
                return .not(try unary())
            }
            if take("n") { return .count }
            if take("(") {
                let inner = try choice()
                guard take(")") else { throw Malformed(expression: expression) }
                return inner
            }
            guard let number = UInt64(tokens[position]) else { throw Malformed(expression: expression) }
            position += 1
            return .number(number)
        }
    }
}
