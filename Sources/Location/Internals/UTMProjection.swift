import CProj
import Values

/// PROJ's transformation from WGS 84 degrees to one UTM zone (EPSG:326zz north, 327zz south): the
/// one owner of its context and transformation.
final class UTMProjection {
    private let context: OpaquePointer
    private let transformation: OpaquePointer
    let zone: Int
    let isNorth: Bool

    init(zone: Int, isNorth: Bool) throws(LocationError) {
        guard let context = proj_context_create() else { throw .projection("PROJ could not start (out of memory?)") }
        // EPSG:4326 takes latitude first, so no axis swapping is needed on the way in.
        let target = "EPSG:\((isNorth ? 32600 : 32700) + zone)"
        guard let transformation = proj_create_crs_to_crs(context, "EPSG:4326", target, nil) else {
            let reason = String(cString: proj_context_errno_string(context, proj_context_errno(context)))
            proj_context_destroy(context)
            throw .projection("PROJ has no transformation to \(target): \(reason)")
        }
        self.context = context
        self.transformation = transformation
        self.zone = zone
        self.isNorth = isNorth
    }

    deinit {
        proj_destroy(transformation)
        proj_context_destroy(context)
    }

    /// Easting and northing in metres.
    func project(latitude: Double, longitude: Double) throws(LocationError) -> (easting: Double, northing: Double) {
        var coordinate = proj_coord(latitude, longitude, 0, 0)
        coordinate = proj_trans(transformation, PJ_FWD, coordinate)
        let (easting, northing) = (coordinate.xy.x, coordinate.xy.y)
        guard easting.isFinite, northing.isFinite else {
            let reason = String(cString: proj_context_errno_string(context, proj_errno(transformation)))
            throw .projection("PROJ could not project \(latitude), \(longitude) to UTM zone \(zone): \(reason)")
        }
        return (easting, northing)
    }
}
