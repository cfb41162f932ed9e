import CCbor

#if canImport(Glibc)
import Glibc
#endif

/// libcbor to `CBORValue`, bounded by a shape check first: what `verify` reads from a file.
enum CBORDecoder {
    /// How deep arrays, maps and tags may nest: C2PA structures need a handful of levels.
    static let maxDepth = 32

    /// The one item that `bytes` hold exactly; nil when they hold anything else, declare more than
    /// is there or nest deeper than `maxDepth`.
    static func decode(_ bytes: [UInt8]) -> CBORValue? {
        guard CBORShape.isWellFormed(bytes, maxDepth: maxDepth) else { return nil }
        // libcbor 0.8 (Debian 12) refuses tags 6 to 20 as unassigned, and COSE_Sign1 is tag 18:
        // a tag in front of the item is read here.
        if let (tag, headSize) = CBORShape.tag(at: bytes) {
            return decode(Array(bytes[headSize...])).map { .tagged(tag, $0) }
        }
        var result = cbor_load_result()
        let loaded = bytes.withUnsafeBufferPointer { cbor_load($0.baseAddress, $0.count, &result) }
        guard var item = loaded else { return nil }
        defer { release(&item) }
        guard result.error.code == CBOR_ERR_NONE, result.read == bytes.count else { return nil }
        return value(of: item)
    }

    private static func release(_ item: inout UnsafeMutablePointer<cbor_item_t>) {
        var reference: UnsafeMutablePointer<cbor_item_t>? = item
        cbor_decref(&reference)
    }

    /// The item as a value; the shape check bounds the recursion.
    private static func value(of item: UnsafeMutablePointer<cbor_item_t>) -> CBORValue {
        switch cbor_typeof(item) {
        case CBOR_TYPE_UINT: return .unsigned(cbor_get_int(item))
        case CBOR_TYPE_NEGINT: return .negative(cbor_get_int(item))
        case CBOR_TYPE_BYTESTRING:
            return .bytes(cbor_bytestring_is_definite(item) ? copy(cbor_bytestring_handle(item), cbor_bytestring_length(item))
                : chunks(cbor_bytestring_chunks_handle(item), cbor_bytestring_chunk_count(item)).flatMap { $0.bytes ?? [] })
        case CBOR_TYPE_STRING:
            let utf8 = cbor_string_is_definite(item) ? copy(cbor_string_handle(item), cbor_string_length(item))
                : chunks(cbor_string_chunks_handle(item), cbor_string_chunk_count(item)).flatMap { Array(($0.text ?? "").utf8) }
            return .text(String(decoding: utf8, as: UTF8.self))
        case CBOR_TYPE_ARRAY:
            return .array(chunks(cbor_array_handle(item), cbor_array_size(item)))
        case CBOR_TYPE_MAP:
            guard let pairs = cbor_map_handle(item) else { return .map([]) }
            return .map((0..<cbor_map_size(item)).compactMap { index -> (key: CBORValue, value: CBORValue)? in
                guard let key = pairs[index].key, let item = pairs[index].value else { return nil }
                return (value(of: key), value(of: item))
            })
        case CBOR_TYPE_TAG:
            guard var inner = cbor_tag_item(item) else { return .null }  // a new reference
            defer { release(&inner) }
            return .tagged(cbor_tag_value(item), value(of: inner))
        default:
            if cbor_float_ctrl_is_ctrl(item) {
                if cbor_is_bool(item) { return .bool(cbor_get_bool(item)) }
                return cbor_is_undef(item) ? .undefined : .null
            }
            return .double(cbor_float_get_float(item))
        }
    }

    private static func copy(_ start: UnsafeMutablePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let start, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: start, count: count))
    }

    private static func chunks(_ items: UnsafeMutablePointer<UnsafeMutablePointer<cbor_item_t>?>?, _ count: Int) -> [CBORValue] {
        guard let items else { return [] }
        return (0..<count).compactMap { items[$0].map(value(of:)) }
    }
}
