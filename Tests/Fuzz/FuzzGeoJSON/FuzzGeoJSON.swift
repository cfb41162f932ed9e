import Location

/// A sites file (GeoJSON) read as `--sites` reads it, then asked which site a few positions are on
/// (each site's own corners and centres among them): it may be refused, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let map = try? SiteMap(geoJSON: bytes, file: "sites.geojson") else { return 0 }
    var probes = [(0.0, 0.0), (51.5, -0.1), (-90.0, 180.0)]
    for site in map.sites.prefix(16) {
        switch site.shape {
        case .circle(let latitude, let longitude, _): probes.append((latitude, longitude))
        case .polygons(let polygons):
            for corner in polygons.first?.rings.first?.prefix(4) ?? [] { probes.append((corner.latitude, corner.longitude)) }
        }
    }
    for (latitude, longitude) in probes { _ = map.site(latitude: latitude, longitude: longitude) }
    return 0
}
