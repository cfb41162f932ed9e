/// The variables a template can use and how each is formatted.
public enum Variables {
    /// Built-in names; any other name is looked up in `--set` values.
    public static let builtIn: [(name: String, help: String)] = [
        ("date", "date, default format %Y-%m-%d"),
        ("time", "time of day, default format %H:%M:%S"),
        ("datetime", "date and time, default format %Y-%m-%d %H:%M:%S"),
        ("tz", "UTC offset of the time, e.g. +08:00"),
        ("time_source", "where the time came from: EXIF, file time, command line, clock"),
        ("user", "who took the photo"),
        ("project", "project or job"),
        ("location", "place name"),
        ("note", "free text"),
        ("lat", "latitude, signed decimal degrees; {lat:dms} for degrees, minutes, seconds"),
        ("lon", "longitude, as lat"),
        ("coords", "latitude and longitude; {coords:decimal} (default) or {coords:dms}"),
        ("altitude", "metres above sea level, e.g. 312 m"),
        ("camera", "camera make and model"),
        ("filename", "the photo's file name"),
        ("seq", "number in the batch or session; {seq:04} pads to 4 digits"),
    ]

    static let timeNames: [String: String] = [
        "date": "%Y-%m-%d", "time": "%H:%M:%S", "datetime": "%Y-%m-%d %H:%M:%S",
    ]

    /// Why `format` does not suit variable `name`, or nil when it does.
    static func check(name: String, format: String) -> String? {
        if timeNames[name] != nil { return TimeFormat.problem(in: format) }
        switch name {
        case "lat", "lon", "coords":
            return ["decimal", "dms"].contains(format) ? nil : "'{\(name):\(format)}': format must be decimal or dms"
        case "seq":
            return !format.isEmpty && format.allSatisfy(\.isNumber) && format.count <= 2
                ? nil : "'{seq:\(format)}': format must be a width such as 04"
        case _ where builtIn.contains { $0.name == name }:
            return "'{\(name):\(format)}': \(name) takes no format"
        default:
            return nil
        }
    }

    /// The text of one variable; empty when the field is unknown.
    static func value(name: String, format: String?, fields: Fields) -> String {
        if let defaultFormat = timeNames[name] {
            guard let time = fields.time else { return "" }
            return TimeFormat.format(time, format ?? defaultFormat)
        }
        switch name {
        case "tz": return fields.time?.offsetText ?? ""
        case "time_source": return fields.timeSource ?? ""
        case "user": return clean(fields.user)
        case "project": return clean(fields.project)
        case "location": return clean(fields.location)
        case "note": return clean(fields.note)
        case "camera": return clean(fields.camera)
        case "filename": return clean(fields.filename)
        case "lat":
            guard let latitude = fields.latitude else { return "" }
            return format == "dms" ? Coordinates.dms(latitude, positive: "N", negative: "S")
                : Coordinates.fixed(latitude, 5)
        case "lon":
            guard let longitude = fields.longitude else { return "" }
            return format == "dms" ? Coordinates.dms(longitude, positive: "E", negative: "W")
                : Coordinates.fixed(longitude, 5)
        case "coords":
            guard let latitude = fields.latitude, let longitude = fields.longitude else { return "" }
            return format == "dms" ? Coordinates.dms(latitude: latitude, longitude: longitude)
                : Coordinates.decimal(latitude: latitude, longitude: longitude)
        case "altitude":
            guard let altitude = fields.altitude else { return "" }
            return "\(Int(altitude.rounded())) m"
        case "seq":
            guard let sequence = fields.sequence else { return "" }
            return zeroPadded(sequence, Int(format ?? "") ?? 0)
        default:
            return clean(fields.extra[name])
        }
    }

    private static func clean(_ value: String?) -> String {
        guard let value else { return "" }
        // Control characters (a newline in --user) would break the layout of one line into two.
        return String(String.UnicodeScalarView(value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
            .trimmed
    }
}

extension String {
    var trimmed: String {
        var slice = Substring(self)
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return String(slice)
    }
}
