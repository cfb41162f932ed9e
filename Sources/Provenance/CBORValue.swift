import Values

/// One decoded CBOR data item (RFC 8949): what C2PA claims, assertions and COSE structures are made of.
enum CBORValue: Sendable {
    case unsigned(UInt64)
    /// The integer -1 - n.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// In the order written; keys may be any item.
    case map([(key: CBORValue, value: CBORValue)])
    indirect case tagged(UInt64, CBORValue)
    case bool(Bool)
    case null
    case undefined
    case float(Double)

    /// The value under a text key of a map.
    subscript(key: String) -> CBORValue? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { if case .text(key) = $0.key { return true } else { return false } }?.value
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
        case .float(let value): return value.isFinite ? .number(value) : .string(String(value))
        }
    }
}
