/// A CBOR data item as a Swift value: what claims, assertions and COSE structures are made of.
/// Maps keep their pairs in the order given, so what is written is what was built.
public indirect enum CBORValue: Equatable, Sendable {
    case unsigned(UInt64)
    /// -1 - `n`, as CBOR's major type 1 holds it.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    case map([(key: CBORValue, value: CBORValue)])
    case tagged(UInt64, CBORValue)
    case bool(Bool)
    case double(Double)
    case null

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
        case (.null, .null): return true
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
        guard let value = CBORCoding.decode(bytes) else { return nil }
        self = value
    }
}
