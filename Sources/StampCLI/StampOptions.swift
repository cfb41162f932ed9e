import Session
import Templates

/// The stamp options of every command that stamps (`apply`, `shoot`, `styles --sheet`,
/// `templates check`, `test-card`): the style and the field values.
enum StampOptions {
    static let template = Option.text("template", short: "t", value: "ID|FILE",
                                      help: "watermark style: an id from 'stampcam styles' or a .json file (default classic)")
    static let templateDir = Option.text("template-dir", value: "DIR", help: "also load templates from DIR (repeatable)")
    static let time = Option<Timestamp>("time", value: "ISO8601",
                                        help: "time to stamp, e.g. 2026-11-29T14:03:12+08:00 (default: the photo's EXIF time, else the clock)") { text throws(UsageError) in
        guard let time = Timestamp(iso8601: text) else {
            throw .badValue(option: "--time", value: text, expected: "an ISO 8601 time like 2026-11-29T14:03:12+08:00")
        }
        return time
    }
    static let tz = Option<FieldPolicy.Zone>("tz", value: "ZONE",
                                             help: "show times in ZONE: +08:00, UTC or a name like Asia/Shanghai") { text throws(UsageError) in
        guard let zone = FieldPolicy.Zone(text) else {
            throw .badValue(option: "--tz", value: text, expected: "a zone like +08:00, UTC or Europe/Paris")
        }
        return zone
    }
    static let user = Option.text("user", value: "NAME", help: "who took the photo (default: EXIF Artist)")
    static let project = Option.text("project", value: "NAME", help: "project or job the photo is for")
    static let location = Option.text("location", value: "TEXT", help: "where the photo was taken (default: EXIF GPS coordinates)")
    static let note = Option.text("note", value: "TEXT", help: "a note to print on the photo")
    static let gps = Option<(latitude: Double, longitude: Double)>("gps", value: "LAT,LON",
                                                                    help: "coordinates in decimal degrees, e.g. 48.8584,2.2945 (default: EXIF GPS)") { text throws(UsageError) in
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.filter { $0 != " " }) }
        guard parts.count == 2, let latitude = parts[0], let longitude = parts[1], latitude.isFinite, longitude.isFinite,
              abs(latitude) <= 90, abs(longitude) <= 180 else {
            throw .badValue(option: "--gps", value: text, expected: "LAT,LON in decimal degrees like 48.8584,2.2945")
        }
        return (latitude, longitude)
    }
    static let set = Option.keyValue("set", value: "KEY=VALUE", help: "a value for {KEY} in templates (repeatable)")

    static let all: [any OptionDeclaration] = [template, templateDir, time, tz, user, project, location, note, gps, set]

    /// `--name TEMPLATE` (apply, shoot): an output file name made of template variables.
    static func name(help: String) -> Option<TextTemplate> {
        Option("name", value: "TEMPLATE", help: help) { text throws(UsageError) in
            do { return try TextTemplate(text) } catch {
                throw .badValue(option: "--name", value: text, expected: "a name template (\(error))")
            }
        }
    }

    /// What the options say: the field policy, the style asked for and extra template folders.
    struct Values {
        var fields: FieldPolicy
        var templateChoice: String?
        var templateFolders: [String]
    }

    /// The warning for values given that `style` does not show (`--note` with minimal), or nil:
    /// a given value never goes missing silently.
    static func notShownWarning(_ style: Template, given: Fields) -> String? {
        let missing = style.fieldsNotShown(given)
        guard !missing.isEmpty else { return nil }
        let options = missing.map { "--\($0)" }
        return "warning: the style '\(style.id)' does not show " + options.joined(separator: ", ")
            + " (it shows: \(style.shownFieldNames.joined(separator: ", "))); 'stampcam styles' lists what each style shows"
    }

    static func values(_ options: ParsedOptions) throws(UsageError) -> Values {
        var given = Fields()
        if let time = try options.value(time) {
            given.time = time
            given.timeSource = "command line"
        }
        given.user = try options.value(user)
        given.project = try options.value(project)
        given.location = try options.value(location)
        given.note = try options.value(note)
        if let position = try options.value(gps) {
            given.latitude = position.latitude
            given.longitude = position.longitude
        }
        for pair in try options.values(set) { given.extra[pair.key] = pair.value }
        return Values(fields: FieldPolicy(given: given, zone: try options.value(tz)),
                      templateChoice: try options.value(template), templateFolders: try options.values(templateDir))
    }
}
