/// A strict JSON reader (RFC 8259) whose errors say what is wrong in words, where (line and column)
/// and in which value (the JSON path): invalid UTF-8, numbers too large for a Double, duplicate keys,
/// nesting deeper than any template needs. Foundation's decoder reports these as `dataCorrupted`
/// or a type mismatch and accepts duplicate keys.
struct JSONReader {
    /// Deeper nesting is refused before it can cost stack: a template needs six levels.
    static let maxDepth = 32

    private let bytes: [UInt8]
    private var index = 0
    private var path: [PathComponent] = []

    private enum PathComponent {
        case key(String)
        case index(Int)
    }

    static func parse(_ bytes: [UInt8]) throws(JSONValue.ParseError) -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        return try reader.document()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func document() throws(JSONValue.ParseError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a byte-order mark some editors write
        skipWhitespace()
        guard index < bytes.count else { throw fail("the file is empty") }
        let value = try self.value(depth: 0)
        skipWhitespace()
        guard index == bytes.count else {
            throw fail("\(found()) after the end of the JSON value (an extra '}' or ']', or a missing ',')")
        }
        return value
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw fail("the file ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("expected a value, found \(found())")
        }
    }

    private mutating func object(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        guard depth <= Self.maxDepth else { throw tooDeep() }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw fail("the file ends inside an object (a missing '}'?)") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw fail(bytes[index] == UInt8(ascii: "}") ? "a ',' before '}' (JSON allows no trailing comma)"
                    : "expected a key in double quotes, found \(found())")
            }
            let keyStart = index
            let key = try string()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw fail("expected ':' after the key \"\(Self.display(key))\", found \(found())") }
            index += 1
            path.append(.key(key))
            guard members[key] == nil else {
                index = keyStart
                throw fail("the key \"\(Self.display(key))\" appears twice in this object (each key may appear once)", syntax: false)
            }
            members[key] = try value(depth: depth)
            path.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw fail("the file ends inside an object (a missing '}'?)") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw fail("expected ',' or '}' after a member, found \(found())")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        guard depth <= Self.maxDepth else { throw tooDeep() }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            if peek(UInt8(ascii: "]")) { throw fail("a ',' before ']' (JSON allows no trailing comma)") }
            path.append(.index(items.count))
            items.append(try value(depth: depth))
            path.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw fail("the file ends inside a list (a missing ']'?)") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            } else {
                throw fail("expected ',' or ']' after an item, found \(found())")
            }
        }
    }

    private mutating func literal(_ word: String) throws(JSONValue.ParseError) {
        let expected = Array(word.utf8)
        guard bytes[index...].starts(with: expected) else { throw fail("expected a value, found \(found())") }
        index += expected.count
    }

    private mutating func number() throws(JSONValue.ParseError) -> Double {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        if peek(UInt8(ascii: "0")) {
            index += 1
            if peekDigit() { throw fail("a number may not start with 0 (write 7, not 07)") }
        } else {
            guard peekDigit() else { throw fail("expected a digit after '-', found \(found())") }
            while peekDigit() { index += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard peekDigit() else { throw fail("expected a digit after the decimal point, found \(found())") }
            while peekDigit() { index += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard peekDigit() else { throw fail("expected a digit in the exponent, found \(found())") }
            while peekDigit() { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            let end = index
            index = start
            let shown = end - start > 24 ? text.prefix(20) + "…" : Substring(text)
            throw fail("the number \(shown) is too large (the largest is about 1.8e308)", syntax: false)
        }
        return value
    }

    private mutating func string() throws(JSONValue.ParseError) -> String {
        let start = index
        index += 1
        var buffer: [UInt8] = []
        while true {
            guard index < bytes.count else {
                index = start
                throw fail("a string is not closed (a missing '\"')")
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: buffer, as: UTF8.self)  // validated byte by byte below
            case UInt8(ascii: "\\"):
                try escape(into: &buffer)
            case 0..<0x20:
                throw fail("a control character (\(Self.code(byte))) inside a string; write a line break as \\n, a tab as \\t")
            case 0x20..<0x80:
                buffer.append(byte)
                index += 1
            default:
                guard let length = utf8SequenceLength(at: index) else {
                    throw fail("invalid UTF-8 (byte 0x\(Hex.padded(byte, digits: 2, uppercase: true))); save the file as UTF-8")
                }
                buffer.append(contentsOf: bytes[index..<index + length])
                index += length
            }
        }
    }

    private mutating func escape(into buffer: inout [UInt8]) throws(JSONValue.ParseError) {
        guard index + 1 < bytes.count else { throw fail("a string is not closed (a missing '\"')") }
        let letter = bytes[index + 1]
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"), UInt8(ascii: "/"): UInt8(ascii: "/"),
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let byte = simple[letter] {
            buffer.append(byte)
            index += 2
            return
        }
        guard letter == UInt8(ascii: "u") else {
            throw fail("'\\\(Self.printable(letter))' is not an escape (use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX)")
        }
        var scalarValue = try hexEscape()
        if (0xD800...0xDBFF).contains(scalarValue) {
            let high = scalarValue
            let unpaired = fail("\\u\(Hex.padded(high, digits: 4, uppercase: true)) is the first half of a surrogate pair without its second half")
            guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else { throw unpaired }
            let low = try hexEscape()
            guard (0xDC00...0xDFFF).contains(low) else { throw unpaired }
            scalarValue = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalarValue) {
            throw fail("\\u\(Hex.padded(scalarValue, digits: 4, uppercase: true)) is the second half of a surrogate pair without its first half")
        }
        guard scalarValue != 0, let scalar = Unicode.Scalar(scalarValue) else {
            throw fail("\\u0000 (a NUL character) is not allowed in a template", syntax: false)
        }
        buffer.append(contentsOf: String(Character(scalar)).utf8)
    }

    /// `\uXXXX` at `index`: the four hex digits' value.
    private mutating func hexEscape() throws(JSONValue.ParseError) -> UInt32 {
        guard index + 6 <= bytes.count,
              let value = UInt32(String(decoding: bytes[index + 2..<index + 6], as: UTF8.self), radix: 16),
              bytes[index + 2..<index + 6].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") }) else {
            throw fail("\\u must be followed by four hex digits")
        }
        index += 6
        return value
    }

    // MARK: Bytes

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private func peekDigit() -> Bool {
        index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
    }

    private mutating func skipWhitespace() {
        while index < bytes.count,
              [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[index]) {
            index += 1
        }
    }

    /// The length of the well-formed UTF-8 sequence at `start` (shortest form, no surrogates, at most
    /// U+10FFFF), or nil.
    private func utf8SequenceLength(at start: Int) -> Int? {
        let lead = bytes[start]
        let length: Int, secondRange: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: (length, secondRange) = (2, 0x80...0xBF)
        case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, secondRange) = (3, 0x80...0xBF)
        case 0xED: (length, secondRange) = (3, 0x80...0x9F)
        case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, secondRange) = (4, 0x80...0xBF)
        case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
        default: return nil
        }
        guard start + length <= bytes.count, secondRange.contains(bytes[start + 1]) else { return nil }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[start + offset]) { return nil }
        return length
    }

    /// What is at `index`, for messages: `'x'`, `the end of the file`, `byte 0xFF (not UTF-8)`.
    private func found() -> String {
        guard index < bytes.count else { return "the end of the file" }
        let byte = bytes[index]
        if byte < 0x80 { return byte < 0x20 || byte == 0x7F ? Self.code(byte) : "'\(Self.printable(byte))'" }
        guard let length = utf8SequenceLength(at: index) else {
            return "byte 0x\(Hex.padded(byte, digits: 2, uppercase: true)) (not UTF-8; save the file as UTF-8)"
        }
        return "'\(String(decoding: bytes[index..<index + length], as: UTF8.self))'"
    }

    // MARK: Errors

    private func tooDeep() -> JSONValue.ParseError {
        fail("lists and objects nest more than \(Self.maxDepth) levels deep here (a template needs at most 6)", syntax: false)
    }

    /// A failure at `index`. `syntax`: the bytes are not JSON at all (said first in the message), as
    /// opposed to JSON this reader refuses (a huge number, a duplicate key, deep nesting).
    private func fail(_ problem: String, syntax: Bool = true) -> JSONValue.ParseError {
        var line = 1, lineStart = 0
        for position in 0..<min(index, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        // Columns count characters, not bytes: UTF-8 continuation bytes do not start one.
        let column = 1 + bytes[lineStart..<min(index, bytes.count)].filter { $0 & 0xC0 != 0x80 }.count
        return JSONValue.ParseError(path: pathText, line: line, column: column,
                                    problem: syntax ? "not valid JSON: " + problem : problem)
    }

    private var pathText: String {
        var text = ""
        for component in path {
            switch component {
            case .key(let key): text += (text.isEmpty ? "" : ".") + Self.display(key)
            case .index(let position): text += "[\(position)]"
            }
        }
        return text
    }

    /// A key as it can be shown in one line of a message.
    static func display(_ key: String) -> String {
        // The usual key ("blocks", "font") is shown as it is: no new string for each of a file's keys.
        if key.utf8.count <= 40 && !key.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return key }
        let clean = String(String.UnicodeScalarView(key.unicodeScalars.map {
            $0.value < 0x20 || $0.value == 0x7F ? "?" : $0
        }))
        return clean.count > 40 ? clean.prefix(40) + "…" : clean
    }

    private static func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : code(byte)
    }

    /// `U+000A`
    private static func code(_ byte: UInt8) -> String { Hex.codePoint(Unicode.Scalar(byte)) }
}
