import Values

/// The variables a template can use and how each is formatted.
public enum Variables {
    /// Built-in names; any other name is looked up in the values given for it.
    public static let builtIn: [(name: String, help: String)] = [
        ("date", "date, default format %Y-%m-%d (the template's timeFormat.date); {date:long} in the user's language: 29 November 2026, 2026年11月29日 星期日"),
        ("time", "time of day, default format %H:%M (the template's timeFormat.time)"),
        ("datetime", "date and time, default format %Y-%m-%d %H:%M"),
        ("tz", "UTC offset of the time, e.g. +08:00"),
        ("time_source", "where the time came from: EXIF, file time, command line, clock, given (set by hand in shoot or serve)"),
        ("user", "who took the photo"),
        ("project", "project or job"),
        ("location", "place name"),
        ("note", "free text"),
        ("lat", "latitude, signed decimal degrees; {lat:dms} for degrees, minutes, seconds"),
        ("lon", "longitude, as lat"),
        ("coords", "latitude and longitude; {coords:decimal} (default) or {coords:dms}"),
        ("utm", "UTM grid reference (WGS 84), e.g. 51N 354634 3456141; empty beyond 84°N and 80°S (UPS is not written)"),
        ("mgrs", "MGRS grid reference, e.g. 51RUQ 54633 56140 (1 m); {mgrs:4} … {mgrs:0} for 10 m … 100 km; empty as utm"),
        ("altitude", "metres above sea level, e.g. 312 m"),
        ("alt", "the same as altitude"),
        ("accuracy", "the GPS fix's horizontal error estimate, e.g. ±8 m"),
        ("heading", "which way the camera faced (compass, else course), e.g. 56° NE"),
        ("speed", "speed over ground, e.g. 4.3 km/h"),
        ("gps_time", "the GPS receiver's time (UTC), default format %Y-%m-%d %H:%M:%S UTC"),
        ("satellites", "satellites used in the GPS fix"),
        ("site", "the named site (from a sites file) the position is on"),
        ("address", "the site's address"),
        ("place", "nearest town or city, region and country, e.g. Helsinki, Uusimaa, FI"),
        ("camera", "camera make and model"),
        ("filename", "the photo's file name"),
        ("seq", "number in the batch or session; {seq:04} pads to 4 digits"),
        ("code", "the photo's verification code, e.g. K7MN-4XRT-9P (stampcam verify --code finds the photo); empty in a preview"),
        ("label", "a label in the user's language: {label:user} is User, 拍摄人, Usuario …; keys: "
            + StampWords.labelKeys.map(\.key).joined(separator: ", ")),
    ]

    static let timeNames: Set<String> = ["date", "time", "datetime"]

    /// Why `format` does not suit variable `name`, or nil when it does.
    static func check(name: String, format: String) -> String? {
        if name == "date" && format == "long" { return nil }
        if timeNames.contains(name) || name == "gps_time" { return TimeFormat.problem(in: format) }
        switch name {
        case "label":
            return StampWords.english.labels[format] != nil ? nil
                : "'{label:\(format)}': no such label (known: \(StampWords.labelKeys.map(\.key).joined(separator: ", ")))"
        case "lat", "lon", "coords":
            return ["decimal", "dms"].contains(format) ? nil : "'{\(name):\(format)}': format must be decimal or dms"
        case "mgrs":
            return format.count == 1 && ("0"..."5").contains(format) ? nil : "'{mgrs:\(format)}': format must be digits of each of easting and northing, 0 to 5"
        case "seq":
            return !format.isEmpty && format.allSatisfy(\.isNumber) && format.count <= 2
                ? nil : "'{seq:\(format)}': format must be a width such as 04"
        case _ where builtIn.contains { $0.name == name }:
            return "'{\(name):\(format)}': \(name) takes no format"
        default:
            return nil
        }
    }

    /// The text of one variable; empty when the field is unknown. Times without a format of their
    /// own are written as `style` says.
    static func value(name: String, format: String?, fields: Fields, style: TimeStyle = .standard) -> String {
        if let defaultFormat = style.defaultFormat(for: name) {
            guard let time = fields.time else { return "" }
            let format = name == "date" && format == "long" ? fields.words.longDate : format ?? defaultFormat
            return TimeFormat.format(time, format, words: fields.words)
        }
        switch name {
        case "label": return format.map { fields.words.label($0) } ?? ""
        case "tz": return fields.time?.offsetText ?? ""
        case "time_source": return clean(fields.timeSource)
        case "user": return clean(fields.user)
        case "project": return clean(fields.project)
        case "location": return clean(fields.location)
        case "note": return clean(fields.note)
        case "camera": return clean(fields.camera)
        case "filename": return clean(fields.filename)
        case "lat":
            guard let latitude = fields.latitude else { return "" }
            return format == "dms" ? Coordinates.dms(latitude, positive: "N", negative: "S")
                : fixedPoint(latitude, places: 5)
        case "lon":
            guard let longitude = fields.longitude else { return "" }
            return format == "dms" ? Coordinates.dms(longitude, positive: "E", negative: "W")
                : fixedPoint(longitude, places: 5)
        case "coords":
            guard let latitude = fields.latitude, let longitude = fields.longitude else { return "" }
            return format == "dms" ? Coordinates.dms(latitude: latitude, longitude: longitude)
                : Coordinates.decimal(latitude: latitude, longitude: longitude)
        case "utm": return fields.grid?.utmText ?? ""
        case "mgrs": return fields.grid?.mgrs(digits: Int(format ?? "") ?? 5) ?? ""
        case "altitude", "alt":
            guard let altitude = fields.altitude, altitude.isFinite, abs(altitude) < 1e9 else { return "" }
            return "\(Int(altitude.rounded())) m"
        case "accuracy":
            guard let accuracy = fields.accuracy, accuracy.isFinite, accuracy >= 0, accuracy < 1e9 else { return "" }
            return "±\(max(1, Int(accuracy.rounded()))) m"
        case "heading":
            guard let heading = fields.heading, heading.isFinite else { return "" }
            return Coordinates.heading(heading, points: fields.words.compassPoints)
        case "speed":
            guard let speed = fields.speed, speed.isFinite, speed >= 0, speed < 1e6 else { return "" }
            return fixedPoint(speed * 3.6, places: 1) + " km/h"
        case "gps_time":
            guard let time = fields.gpsTime else { return "" }
            return TimeFormat.format(time.converted(toOffsetMinutes: 0), format ?? "%Y-%m-%d %H:%M:%S UTC", words: fields.words)
        case "satellites":
            return fields.satellites.map(String.init) ?? ""
        case "code": return fields.code ?? ""
        case "site": return clean(fields.site)
        case "address": return clean(fields.address)
        case "place": return clean(fields.place)
        case "seq":
            guard let sequence = fields.sequence else { return "" }
            return zeroPadded(sequence, Int(format ?? "") ?? 0)
        default:
            return clean(fields.extra[name])
        }
    }

    /// A value with each run of control characters as one space, trimmed; not cut, so a file-name
    /// template (`--name`) gets the whole value. `stamp` cuts values first (`Fields.prepared`).
    private static func clean(_ value: String?) -> String {
        guard let value else { return "" }
        return cleaned(value, window: nil).text
    }

    /// A value as a stamp shows it: each run of control characters (line breaks, tabs …) becomes one
    /// space, so `"line1\nline2"` reads `line1 line2` and one line never breaks in two; the ends are
    /// trimmed; and it is cut to `Fields.maxValueLength` characters, the last being "…".
    /// `length` is the value's length in characters, as given, when it was cut; else nil.
    static func shown(_ value: String) -> (text: String, length: Int?) {
        let limit = Fields.maxValueLength
        // Only the start of a long value can be shown, so only the start is cleaned: a 60 KB value
        // costs no more than a short one. A character has seldom more than eight scalars.
        let (text, stoppedEarly) = cleaned(value, window: limit * 8 + 8)
        if !stoppedEarly && text.count <= limit { return (text, nil) }
        let end = text.index(text.startIndex, offsetBy: limit - 1, limitedBy: text.endIndex) ?? text.endIndex
        return (String(text[..<end]).trimmingWhitespace + "…", value.count)
    }

    /// `value` with each run of control characters as one space, trimmed; with a `window`, only its
    /// first `window` scalars (after that replacement), and whether there was more.
    private static func cleaned(_ value: String, window: Int?) -> (text: String, stoppedEarly: Bool) {
        var scalars = String.UnicodeScalarView()
        var kept = 0, inBreak = false
        for scalar in value.unicodeScalars {
            if let window, kept >= window { return (String(scalars).trimmingWhitespace, true) }
            // Cc (C0, DEL, C1) and the line and paragraph separators, which Pango breaks lines at.
            let isBreak = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029
            if !isBreak || !inBreak {
                scalars.append(isBreak ? " " : scalar)
                kept += 1
            }
            inBreak = isBreak
        }
        return (String(scalars).trimmingWhitespace, false)
    }

    /// Whether `name` is a built-in variable (any other needs a value given with `--set`).
    public static func isBuiltIn(_ name: String) -> Bool {
        builtIn.contains { $0.name == name }
    }

    /// The known name closest to a misspelt one (`projcet` → `project`), if one is close.
    public static func suggestion(for name: String, among names: [String]) -> String? {
        let allowed = name.count <= 4 ? 1 : 2
        let scored = names.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }.filter { $0.1 <= allowed }
        return scored.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }?.0
    }

    /// Levenshtein distance, with a swap of two neighbours counting as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
