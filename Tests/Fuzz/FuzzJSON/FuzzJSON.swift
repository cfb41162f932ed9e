import Values

/// The strict JSON reader (templates, the config, GeoJSON, the web API's bodies) on any bytes: it
/// may refuse them, with a message naming where, and must never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        let value = try JSONValue(parsing: bytes)
        _ = value.kind
    } catch {
        _ = error.description
    }
    return 0
}
