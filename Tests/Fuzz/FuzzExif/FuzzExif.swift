@testable import Imaging

/// The EXIF tree and maker-note regions on any TIFF block (an APP1 payload after "Exif\0\0"), or
/// libexif's reading of it where the tree cannot follow it, then written again as a stamped
/// photo's EXIF is (`Photo.outputExif`): reading may refuse it, never crash, and what is written
/// must read back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExif(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let payload = Array("Exif\0\0".utf8) + (data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    guard var tree = ExifTree(payload: payload) ?? ExifBlock(payload: payload)?.payload().flatMap(ExifTree.init(payload:)) else {
        return 0
    }
    tree.prepareForOutput(width: 4000, height: 3000)
    tree.setOrientation(.right)
    let written = tree.payload(fitting: JPEGEncoder.maximumAPP1Payload)
    if let payload = written.payload {
        precondition(payload.count <= JPEGEncoder.maximumAPP1Payload, "the EXIF written does not fit its APP1 segment")
        precondition(ExifTree(payload: payload) != nil, "the EXIF written cannot be read back")
    }
    return 0
}
