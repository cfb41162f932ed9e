@testable import Provenance

/// The JUMBF superbox reader (a C2PA manifest store's boxes) on any bytes: it may refuse them,
/// never crash; every range it hands out lies inside the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJUMBF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let root = try? JUMBFSuperbox.read(bytes) else { return 0 }
    var boxes = [root]
    while let box = boxes.popLast() {
        precondition(box.contents.upperBound <= bytes.count && box.data.allSatisfy { $0.payload.upperBound <= bytes.count })
        _ = (box.typeName, box.child("c2pa.claim"), box.payload("cbor"))
        boxes += box.children
    }
    return 0
}
