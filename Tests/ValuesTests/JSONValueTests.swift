import Testing
import Values

/// The strict reader against documents it did not write: random values, and damaged ones.
@Suite struct JSONValueTests {
    @Test("what a value is, in the words of messages")
    func kinds() throws {
        let value = try JSONValue(parsing: Array(#"[null, true, 1.5, "s", [], {}]"#.utf8))
        guard case .array(let items) = value else {
            Issue.record("not a list: \(value)")
            return
        }
        #expect(items.map(\.kind) == ["null", "true or false", "a number", "a string", "a list", "an object"])
        #expect(JSONValue.displayedKey("blocks") == "blocks")
        #expect(JSONValue.displayedKey("a\nb") == "a?b")
        #expect(JSONValue.displayedKey(String(repeating: "k", count: 50)) == String(repeating: "k", count: 40) + "…")
    }

    @Test("random documents read back as the values they were written from", arguments: 0..<200)
    func roundTrip(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed))
        let value = Self.randomValue(&random, depth: 0)
        let text = Self.serialize(value, pretty: seed % 2 == 0)
        #expect(try JSONValue(parsing: Array(text.utf8)) == value, "\(text)")
    }

    @Test("damaged documents never crash: a value or an error with a place", arguments: 0..<300)
    func damaged(seed: Int) {
        var random = SplitMix(seed: UInt64(seed) &+ 1000)
        var bytes = Array(Self.serialize(Self.randomValue(&random, depth: 0), pretty: true).utf8)
        for _ in 0..<1 + Int(random.next() % 3) where !bytes.isEmpty {
            let position = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 3 {
            case 0: bytes.remove(at: position)
            case 1: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
            default: bytes[position] = UInt8(truncatingIfNeeded: random.next())
            }
        }
        do {
            _ = try JSONValue(parsing: bytes)
        } catch {
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
            #expect(error.line >= 1 && error.line <= lines && error.column >= 1)
            #expect(!error.problem.isEmpty)
        }
    }

    static func randomValue(_ random: inout SplitMix, depth: Int) -> JSONValue {
        switch random.next() % (depth > 4 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2:
            let number = Double(Int64(bitPattern: random.next()) % 1_000_000) / Double(1 + random.next() % 1000)
            return .number(number)
        case 3:
            let alphabet: [Unicode.Scalar] = ["a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "é", "李", "😀", "\u{7F}", "\u{2028}"]
            return .string(String(String.UnicodeScalarView((0..<random.next() % 8).map { _ in
                alphabet[Int(random.next() % UInt64(alphabet.count))]
            })))
        case 4: return .array((0..<random.next() % 4).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for index in 0..<random.next() % 4 { members["k\(index)"] = randomValue(&random, depth: depth + 1) }
            return .object(members)
        }
    }

    /// A small JSON writer of our own, so the reader is checked against something independent of it.
    static func serialize(_ value: JSONValue, pretty: Bool) -> String {
        let space = pretty ? "\n  " : ""
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return "\(number)"
        case .string(let text): return quote(text)
        case .array(let items): return "[" + space + items.map { serialize($0, pretty: pretty) }.joined(separator: "," + space) + "]"
        case .object(let members):
            return "{" + space + members.keys.sorted().map { quote($0) + ": " + serialize(members[$0]!, pretty: pretty) }
                .joined(separator: "," + space) + "}"
        }
    }

    static func quote(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "😀": output += "\\ud83d\\ude00"  // a surrogate pair
            case _ where scalar.value < 0x20:
                output += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}

/// A small seeded generator, so every run tests the same documents.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
