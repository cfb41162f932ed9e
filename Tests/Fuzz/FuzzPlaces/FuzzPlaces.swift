@testable import Location

/// The place index file from the cache folder (the fuzzer's bytes, for a table at a fixed path,
/// size and time, as the seeds are made): a damaged file is not used, never a crash, and a
/// gazetteer it gives answers lookups.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaces(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let gazetteer = PlaceIndexFile.decode(bytes, source: fuzzSource) else { return 0 }
    for (latitude, longitude) in [(48.14, 11.58), (-33.87, 151.21), (90.0, 180.0), (0.0, 0.0)] {
        _ = gazetteer.nearest(latitude: latitude, longitude: longitude)
        _ = gazetteer.nearest(latitude: latitude, longitude: longitude, within: 20_000)
    }
    return 0
}

/// The table the seeds' index files name (LocationTests/FuzzSeedTests).
let fuzzSource = PlaceIndexFile.Source(path: "/fuzz/cities1000.csv", size: 1000, modified: 1_700_000_000)
