import CCbor

#if canImport(Glibc)
import Glibc
#endif

/// CBORValue to and from bytes through libcbor: each item built here is owned by the reference
/// its builder returned, handed to its container (which takes its own) and released after.
enum CBORCoding {
    static func encode(_ value: CBORValue) throws(ProvenanceError) -> [UInt8] {
        guard let item = build(value) else { throw .crypto("build a CBOR item (out of memory)") }
        var root: UnsafeMutablePointer<cbor_item_t>? = item
        defer { cbor_decref(&root) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var capacity = 0
        let length = cbor_serialize_alloc(item, &buffer, &capacity)
        defer { free(buffer) }
        guard length > 0, let buffer else { throw .crypto("serialize a CBOR item (out of memory)") }
        return Array(UnsafeBufferPointer(start: buffer, count: length))
    }

    /// A new libcbor item with one reference, the caller's; nil when memory runs out.
    private static func build(_ value: CBORValue) -> UnsafeMutablePointer<cbor_item_t>? {
        switch value {
        case .unsigned(let number):
            switch number {
            case ...0xff: return cbor_build_uint8(UInt8(number))
            case ...0xffff: return cbor_build_uint16(UInt16(number))
            case ...0xffff_ffff: return cbor_build_uint32(UInt32(number))
            default: return cbor_build_uint64(number)
            }
        case .negative(let number):
            switch number {
            case ...0xff: return cbor_build_negint8(UInt8(number))
            case ...0xffff: return cbor_build_negint16(UInt16(number))
            case ...0xffff_ffff: return cbor_build_negint32(UInt32(number))
            default: return cbor_build_negint64(number)
            }
        case .bytes(let bytes):
            return bytes.withUnsafeBufferPointer { cbor_build_bytestring($0.baseAddress ?? UnsafePointer(bitPattern: 1), $0.count) }
        case .text(let text):
            return Array(text.utf8).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { cbor_build_stringn($0.baseAddress ?? UnsafePointer(bitPattern: 1), $0.count) }
            }
        case .array(let elements):
            guard let array = cbor_new_definite_array(elements.count) else { return nil }
            for element in elements {
                guard let child = build(element) else { return release(array) }
                let added = cbor_array_push(array, child)
                _ = release(child)
                if !added { return release(array) }
            }
            return array
        case .map(let pairs):
            guard let map = cbor_new_definite_map(pairs.count) else { return nil }
            for pair in pairs {
                guard let key = build(pair.key) else { return release(map) }
                guard let value = build(pair.value) else {
                    _ = release(key)
                    return release(map)
                }
                let added = cbor_map_add(map, cbor_pair(key: key, value: value))
                _ = release(key)
                _ = release(value)
                if !added { return release(map) }
            }
            return map
        case .tagged(let tag, let content):
            guard let inner = build(content) else { return nil }
            defer { _ = release(inner) }
            return cbor_build_tag(tag, inner)
        case .bool(let flag):
            return cbor_build_bool(flag)
        case .double(let number):
            return cbor_build_float8(number)
        case .null:
            return cbor_new_null()
        }
    }

    /// Gives up one reference to `item`; nil, for a builder that failed.
    private static func release(_ item: UnsafeMutablePointer<cbor_item_t>) -> UnsafeMutablePointer<cbor_item_t>? {
        var owned: UnsafeMutablePointer<cbor_item_t>? = item
        cbor_decref(&owned)
        return nil
    }

    /// Deeper nesting than this is refused rather than followed (a hostile file's thousand arrays).
    static let maximumDepth = 64

    static func decode(_ bytes: [UInt8]) -> CBORValue? {
        var result = cbor_load_result()
        let item = bytes.withUnsafeBufferPointer { cbor_load($0.baseAddress, $0.count, &result) }
        guard let item else { return nil }
        defer { _ = release(item) }
        guard result.error.code == CBOR_ERR_NONE, result.read == bytes.count else { return nil }
        return value(item, depth: 0)
    }

    private static func value(_ item: UnsafeMutablePointer<cbor_item_t>, depth: Int) -> CBORValue? {
        guard depth < maximumDepth else { return nil }
        switch cbor_typeof(item) {
        case CBOR_TYPE_UINT: return .unsigned(cbor_get_int(item))
        case CBOR_TYPE_NEGINT: return .negative(cbor_get_int(item))
        case CBOR_TYPE_BYTESTRING:
            guard cbor_bytestring_is_definite(item) else { return nil }
            return .bytes(Array(UnsafeBufferPointer(start: cbor_bytestring_handle(item), count: cbor_bytestring_length(item))))
        case CBOR_TYPE_STRING:
            guard cbor_string_is_definite(item) else { return nil }
            let utf8 = UnsafeBufferPointer(start: cbor_string_handle(item), count: cbor_string_length(item))
            return String(validating: utf8, as: UTF8.self).map(CBORValue.text)
        case CBOR_TYPE_ARRAY:
            var elements: [CBORValue] = []
            for index in 0..<cbor_array_size(item) {
                guard let element = cbor_array_handle(item)[index], let decoded = value(element, depth: depth + 1) else { return nil }
                elements.append(decoded)
            }
            return .array(elements)
        case CBOR_TYPE_MAP:
            var pairs: [(key: CBORValue, value: CBORValue)] = []
            for index in 0..<cbor_map_size(item) {
                let pair = cbor_map_handle(item)[index]
                guard let key = pair.key, let entry = pair.value,
                      let decodedKey = value(key, depth: depth + 1), let decoded = value(entry, depth: depth + 1) else { return nil }
                pairs.append((key: decodedKey, value: decoded))
            }
            return .map(pairs)
        case CBOR_TYPE_TAG:
            // cbor_tag_item hands out a reference of its own.
            guard let inner = cbor_tag_item(item) else { return nil }
            defer { _ = release(inner) }
            return value(inner, depth: depth + 1).map { .tagged(cbor_tag_value(item), $0) }
        case CBOR_TYPE_FLOAT_CTRL:
            if cbor_float_ctrl_is_ctrl(item) {
                if cbor_is_null(item) { return .null }
                if cbor_is_bool(item) { return .bool(cbor_get_bool(item)) }
                return nil
            }
            return .double(cbor_float_get_float(item))
        default:
            return nil
        }
    }
}
