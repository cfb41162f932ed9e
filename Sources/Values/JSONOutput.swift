import FoundationEssentials

/// How stampcam writes JSON — the web API, `--json` lines, exports, sidecars: `Encodable` values
/// through one `JSONEncoder` set-up. Keys are sorted, so a value always gives the same text;
/// `/` is written as it is. (`JSONValue` is the strict reader beside it.)
public enum JSONOutput {
    /// `value` as UTF-8 JSON: compact on one line, or `pretty` (indented, for files people read).
    /// Throws when the value cannot be JSON (a number that is not finite).
    public static func encoded<Value: Encodable>(_ value: Value, pretty: Bool = false) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// `value` as one line of JSON text.
    public static func line<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try encoded(value), as: UTF8.self)
    }
}
