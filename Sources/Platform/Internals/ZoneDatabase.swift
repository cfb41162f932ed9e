import CGLib

/// The system's time zone database (tzdata, read by GLib's `GTimeZone`): a named zone's offset from
/// UTC at an instant.
enum ZoneDatabase {
    /// nil for a name that is not a zone in the database. Only names shaped like IANA's reach GLib,
    /// which would otherwise open any file named by an absolute path (a FIFO would hang it).
    static func offsetSeconds(zone identifier: String, at secondsSinceEpoch: Int) -> Int? {
        guard isZoneName(identifier), let zone = g_time_zone_new_identifier(identifier) else { return nil }
        defer { g_time_zone_unref(zone) }
        let interval = g_time_zone_find_interval(zone, G_TIME_TYPE_UNIVERSAL, gint64(secondsSinceEpoch))
        guard interval >= 0 else { return nil }
        return Int(g_time_zone_get_offset(zone, interval))
    }

    /// `Area/Location` names: letters, digits, `_ + - .`, parts joined by `/`, none empty or `..`.
    static func isZoneName(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 64 else { return false }
        return text.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part != "." && part != ".." && part.first != "-"
                && part.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_+-.".unicodeScalars.contains($0)) }
        }
    }
}
