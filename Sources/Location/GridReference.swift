import Platform
import Values

/// UTM and MGRS grid references of a WGS 84 position, projected by PROJ.
public enum GridReference {
    /// The position on the UTM grid, in its standard zone (Norway and Svalbard exceptions
    /// included); nil beyond 84°N or 80°S, where the grid is UPS, which stampcam does not write.
    public static func position(latitude: Double, longitude: Double) throws(LocationError) -> GridPosition? {
        guard latitude.isFinite, let zone = GridPosition.zone(latitude: latitude, longitude: longitude) else { return nil }
        let isNorth = latitude >= 0
        let (easting, northing) = try UTMProjection(zone: zone, isNorth: isNorth).project(latitude: latitude, longitude: longitude)
        return GridPosition(zone: zone, isNorth: isNorth, easting: easting, northing: northing, latitude: latitude)
    }
}

extension GridReference {
    /// Loads PROJ now (`doctor`); throws when it is missing. Only the grid variables need it.
    public static func loadLibrary() throws(MissingLibrary) {
        _ = try UTMProjection.library()
    }
}
