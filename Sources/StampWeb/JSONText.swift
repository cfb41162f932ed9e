/// JSON the server writes: keys keep their order, strings are escaped per RFC 8259 (quotes,
/// backslashes and control characters), numbers are finite (anything else is written as null).
indirect enum JSONText: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([JSONText])
    case object([(String, JSONText)])

    static func == (a: JSONText, b: JSONText) -> Bool { a.bytes == b.bytes }

    /// `"text"` or null.
    static func optional(_ text: String?) -> JSONText { text.map(JSONText.string) ?? .null }

    /// The document as UTF-8.
    var bytes: [UInt8] {
        var output: [UInt8] = []
        write(into: &output)
        return output
    }

    /// An object from ordered pairs, as bytes.
    static func object(_ pairs: KeyValuePairs<String, JSONText>) -> [UInt8] {
        JSONText.object(pairs.map { ($0.key, $0.value) }).bytes
    }

    private func write(into output: inout [UInt8]) {
        switch self {
        case .null: output += Array("null".utf8)
        case .bool(let value): output += Array((value ? "true" : "false").utf8)
        case .int(let value): output += Array(String(value).utf8)
        case .number(let value):
            guard value.isFinite else {
                output += Array("null".utf8)
                return
            }
            output += Array((value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)).utf8)
        case .string(let text): Self.quote(text, into: &output)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                item.write(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let pairs):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.quote(key, into: &output)
                output.append(UInt8(ascii: ":"))
                value.write(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func quote(_ text: String, into output: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\t"): output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\r"): output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0..<0x20, 0x7F:
                output += Array("\\u00".utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
