import Values

/// A CBOR data item (RFC 8949) as a Swift value: what C2PA claims, assertions and COSE structures are
/// made of. Maps keep their pairs in the order given, so what is written is what was built and what
/// is read is what the file holds.
public indirect enum CBORValue: Equatable, Sendable {
    case unsigned(UInt64)
    /// -1 - `n`, as CBOR's major type 1 holds it.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// Keys may be any item.
    case map([(key: CBORValue, value: CBORValue)])
    case tagged(UInt64, CBORValue)
    case bool(Bool)
    case double(Double)
    case null
    case undefined

    /// An integer of either sign.
    public static func integer(_ value: Int) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// A map with text keys, in the order given.
    public static func textMap(_ pairs: KeyValuePairs<String, CBORValue>) -> CBORValue {
        .map(pairs.map { (key: .text($0.key), value: $0.value) })
    }

    /// The value under text key `key` of a map; nil for other values or a missing key.
    public subscript(key: String) -> CBORValue? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == .text(key) }?.value
    }

    /// The value under an integer key of a map (COSE header labels).
    subscript(label label: Int) -> CBORValue? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key.integer == label }?.value
    }

    var text: String? { if case .text(let text) = self { text } else { nil } }
    var bytes: [UInt8]? { if case .bytes(let bytes) = self { bytes } else { nil } }
    var array: [CBORValue]? { if case .array(let items) = self { items } else { nil } }
    var isMap: Bool { if case .map = self { true } else { false } }

    /// An integer that fits in `Int`.
    var integer: Int? {
        switch self {
        case .unsigned(let value): return value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): return value < UInt64(Int.max) ? -1 - Int(value) : nil
        default: return nil
        }
    }

    public static func == (a: CBORValue, b: CBORValue) -> Bool {
        switch (a, b) {
        case (.unsigned(let x), .unsigned(let y)), (.negative(let x), .negative(let y)): return x == y
        case (.bytes(let x), .bytes(let y)): return x == y
        case (.text(let x), .text(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.map(let x), .map(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.tagged(let t, let x), .tagged(let u, let y)): return t == u && x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.null, .null), (.undefined, .undefined): return true
        default: return false
        }
    }
}

extension CBORValue {
    /// The value's CBOR encoding (through libcbor). Integers are written in their shortest form.
    public var encoded: [UInt8] {
        get throws(ProvenanceError) { try CBORCoding.encode(self) }
    }

    /// The one data item that `bytes` hold; nil when they are not exactly one well-formed item.
    public init?(decoding bytes: [UInt8]) {
        guard let value = CBORDecoder.decode(bytes) else { return nil }
        self = value
    }

    /// The item as JSON, for people and scripts: byte strings as lowercase hex, tags dropped,
    /// keys that are not text written as text.
    var json: JSONValue {
        switch self {
        case .unsigned(let value): return .number(Double(value))
        case .negative(let value): return .number(-1 - Double(value))
        case .bytes(let bytes): return .string(Hex.lowercase(bytes))
        case .text(let text): return .string(text)
        case .array(let items): return .array(items.map(\.json))
        case .map(let pairs):
            var object: [String: JSONValue] = [:]
            for pair in pairs { object[pair.key.text ?? pair.key.integer.map(String.init) ?? "?"] = pair.value.json }
            return .object(object)
        case .tagged(_, let item): return item.json
        case .bool(let flag): return .bool(flag)
        case .null, .undefined: return .null
        case .double(let value): return value.isFinite ? .number(value) : .string(String(value))
        }
    }
}

extension CBORValue {
    /// The bytes of the head that announces a length or count of `argument` (RFC 8949 §3).
    static func headSize(_ argument: Int) -> Int {
        switch argument {
        case ..<24: return 1
        case ..<0x100: return 2
        case ..<0x1_0000: return 3
        case ..<0x1_0000_0000: return 5
        default: return 9
        }
    }
}
