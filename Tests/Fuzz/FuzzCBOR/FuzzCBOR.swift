@testable import Provenance

/// CBOR as `verify` reads it from a file: the shape check, then libcbor, then the value: any bytes
/// may be refused, never crash (nor make libcbor allocate for items that are not there).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = CBORShape.tag(at: bytes)
    guard let value = CBORDecoder.decode(bytes) else { return 0 }
    _ = (value.json, value["alg"], value[label: 1], value.array?.count)
    return 0
}
