import CCbor

#if canImport(Glibc)
import Glibc
#endif

/// CBORValue to bytes through libcbor (CBORDecoder reads them back): each item built here is owned by the reference
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
        case .undefined:
            return cbor_new_undef()
        }
    }

    /// Gives up one reference to `item`; nil, for a builder that failed.
    private static func release(_ item: UnsafeMutablePointer<cbor_item_t>) -> UnsafeMutablePointer<cbor_item_t>? {
        var owned: UnsafeMutablePointer<cbor_item_t>? = item
        cbor_decref(&owned)
        return nil
    }
}
