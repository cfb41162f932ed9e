import CProj
import Platform
import Values

/// PROJ's transformation from WGS 84 degrees to one UTM zone (EPSG:326zz north, 327zz south): the
/// one owner of its context and transformation.
final class UTMProjection {
    private let proj: sc_proj
    private let context: OpaquePointer
    private let transformation: OpaquePointer
    let zone: Int
    let isNorth: Bool

    init(zone: Int, isNorth: Bool) throws(LocationError) {
        let proj: sc_proj
        do { proj = try Self.library() } catch { throw .libraryMissing(error) }
        guard let context = proj.proj_context_create() else { throw .projection("PROJ could not start (out of memory?)") }
        // EPSG:4326 takes latitude first, so no axis swapping is needed on the way in.
        let target = "EPSG:\((isNorth ? 32600 : 32700) + zone)"
        guard let transformation = proj.proj_create_crs_to_crs(context, "EPSG:4326", target, nil) else {
            let reason = Self.message(proj, context, proj.proj_context_errno(context))
            _ = proj.proj_context_destroy(context)
            throw .projection("PROJ has no transformation to \(target): \(reason)")
        }
        self.proj = proj
        self.context = context
        self.transformation = transformation
        self.zone = zone
        self.isNorth = isNorth
    }

    deinit {
        _ = proj.proj_destroy(transformation)
        _ = proj.proj_context_destroy(context)
    }

    /// PROJ, opened when a grid reference is first wanted.
    static func library() throws(MissingLibrary) -> sc_proj {
        var reason: UnsafePointer<CChar>?
        guard let table = sc_proj_load(&reason) else {
            throw MissingLibrary(feature: "grid references ({utm}, {mgrs})", packages: ["libproj25"], reason: reason)
        }
        return table.pointee
    }

    /// PROJ's words for an error number.
    private static func message(_ proj: sc_proj, _ context: OpaquePointer, _ code: Int32) -> String {
        proj.proj_context_errno_string(context, code).map { String(cString: $0) } ?? "error \(code)"
    }

    /// Easting and northing in metres.
    func project(latitude: Double, longitude: Double) throws(LocationError) -> (easting: Double, northing: Double) {
        let coordinate = proj.proj_trans(transformation, PJ_FWD, proj.proj_coord(latitude, longitude, 0, 0))
        let (easting, northing) = (coordinate.xy.x, coordinate.xy.y)
        guard easting.isFinite, northing.isFinite else {
            let reason = Self.message(proj, context, proj.proj_errno(transformation))
            throw .projection("PROJ could not project \(latitude), \(longitude) to UTM zone \(zone): \(reason)")
        }
        return (easting, northing)
    }
}
