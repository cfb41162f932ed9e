import Location
import Platform
import Session
import Templates
import Values

/// The stamp options of every command that stamps (`apply`, `shoot`, `styles --sheet`,
/// `templates check`, `test-card`): the style and the field values.
enum StampOptions {
    static let template = Option.text("template", short: "t", value: "ID|FILE",
                                      help: marked("option", "watermark style: an id from 'stampcam styles' or a .json file (default classic)"))
    static let templateDir = Option.text("template-dir", value: "DIR", help: marked("option", "also load templates from DIR (repeatable)"))
    static let time = Option<Timestamp>("time", value: "ISO8601",
                                        help: marked("option", "time to stamp, e.g. 2026-11-29T14:03:12+08:00 (default: the photo's EXIF time, else the clock)")) { text throws(UsageError) in
        guard let time = Timestamp(iso8601: text) else {
            throw .badValue(option: "--time", value: text, expected: "an ISO 8601 time like 2026-11-29T14:03:12+08:00")
        }
        return time
    }
    static let tz = Option<FieldPolicy.Zone>("tz", value: "ZONE",
                                             help: marked("option", "show times in ZONE: +08:00, UTC or a name like Asia/Shanghai")) { text throws(UsageError) in
        guard let zone = FieldPolicy.Zone(text) else {
            throw .badValue(option: "--tz", value: text, expected: "a zone like +08:00, UTC or Europe/Paris")
        }
        return zone
    }
    static let user = Option.text("user", value: "NAME", help: marked("option", "who took the photo (default: EXIF Artist)"))
    static let project = Option.text("project", value: "NAME", help: marked("option", "project or job the photo is for"))
    static let location = Option.text("location", value: "TEXT", help: marked("option", "where the photo was taken (default: EXIF GPS coordinates)"))
    static let note = Option.text("note", value: "TEXT", help: marked("option", "a note to print on the photo"))
    static let gps = Option<GPSMode>("gps", value: "auto|LAT,LON[,ALT]|off|require",
                                     help: marked("option", "position: gpsd's fix when it answers (auto, default), gpsd or an error (require), none (off), or decimal degrees and metres like 48.8584,2.2945,35 (apply: default EXIF GPS)")) { text throws(UsageError) in
        guard let mode = GPSMode(text) else {
            if GPSMode.numbers(text) != nil {
                throw .outOfRange(option: "--gps", value: text,
                                  range: "the latitude goes from -90 to 90, the longitude from -180 to 180, the altitude from -100000 to 100000 metres")
            }
            throw .badValue(option: "--gps", value: text, expected: "auto, require, off, or LAT,LON[,ALT] in decimal degrees like 48.8584,2.2945")
        }
        return mode
    }
    static let gpsMaxAge = Option.number("gps-max-age", value: "SECONDS", in: 0.1...86_400, example: "10",
                                         help: marked("option", "a GPS fix older than this is not used (default 10)"))
    static let gpsMinAccuracy = Option.number("gps-min-accuracy", value: "METRES", in: 0.1...1_000_000, example: "50",
                                              help: marked("option", "a GPS fix less accurate than this is not used (default 50)"))
    static let gpsd = Option<(host: String, port: String)>("gpsd", value: "HOST[:PORT]",
                                                           help: marked("option", "where gpsd listens (default localhost:2947)")) { text throws(UsageError) in
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count), !parts[0].isEmpty,
              parts.count == 1 || (UInt16(parts[1]).map { $0 > 0 } ?? false) else {
            throw .badValue(option: "--gpsd", value: text, expected: "HOST or HOST:PORT, like localhost:2947")
        }
        return (parts[0], parts.count == 2 ? parts[1] : GPSDReceiver.defaultPort)
    }
    static let sites = Option.text("sites", value: "FILE",
                                   help: marked("option", "GeoJSON file of named sites: fills {site}, {address}, and --project when not given"))
    static let set = Option.keyValue("set", value: "KEY=VALUE", help: marked("option", "a value for {KEY} in templates (repeatable)"))

    static let all: [any OptionDeclaration] = [template, templateDir, time, tz, user, project, location, note, gps,
                                                 gpsMaxAge, gpsMinAccuracy, gpsd, sites, set]

    /// `--name TEMPLATE` (apply, shoot): an output file name made of template variables.
    static func name(help: String) -> Option<TextTemplate> {
        Option("name", value: "TEMPLATE", help: help) { text throws(UsageError) in
            do { return try TextTemplate(text) } catch {
                throw .badValue(option: "--name", value: text, expected: "a name template (\(error))")
            }
        }
    }

    /// The `--name` given, checked against the values given: a variable without a value would
    /// vanish from every name (`{projcet}`), so it is an error, naming the variable meant.
    static func nameTemplate(_ options: ParsedOptions, _ option: Option<TextTemplate>, given: Fields) throws(UsageError) -> TextTemplate? {
        guard let template = try options.value(option) else { return nil }
        let known = Set(given.extra.keys).union(["basename"])
        for name in template.variableNames where !Variables.isBuiltIn(name) && !known.contains(name) {
            let suggestion = Variables.suggestion(for: name, among: Variables.builtIn.map(\.name) + known.sorted())
            throw .unknownVariable(option: "--\(option.spec.long)", name: name, suggestion: suggestion)
        }
        return template
    }

    /// What the options say: the field policy, the style asked for and extra template folders.
    struct Values {
        var fields: FieldPolicy
        var templateChoice: String?
        var templateFolders: [String]
        /// `--gpsd`.
        var gpsd: (host: String, port: String)
    }

    /// The warning for values given that `style` does not show (`--note` with minimal), or nil:
    /// a given value never goes missing silently.
    static func notShownWarning(_ style: Template, given: Fields) -> String? {
        let missing = style.fieldsNotShown(given)
        guard !missing.isEmpty else { return nil }
        let options = missing.map { given.extra[$0] != nil && !["user", "project", "location", "note", "gps"].contains($0) ? "--set \($0)" : "--\($0)" }
        return L("warning: the style '{1}' does not show {2} (it shows: {3}); 'stampcam styles' lists what each style shows",
                 style.id, options.joined(separator: ", "), style.shownFieldNames.joined(separator: ", "))
    }

    /// `context`, when given, finds the place names (`{place}`) for the policy; `live`: the command
    /// takes photos now (`shoot`), so `--gps require` means something.
    static func values(_ options: ParsedOptions, context: Context? = nil, live: Bool = false) throws -> Values {
        var given = Fields()
        given.words = .translated { word, context in Lp(context, word) }
        if let time = try options.value(time) {
            given.time = time
            given.timeSource = "command line"
        }
        given.user = try options.value(user)
        given.project = try options.value(project)
        given.location = try options.value(location)
        given.note = try options.value(note)
        let mode = try options.value(gps) ?? .auto
        if mode == .require && !live {
            throw UsageError.badValue(option: "--gps", value: "require",
                                      expected: "auto, off or LAT,LON[,ALT] here (require is for shoot: this command uses the photo's own GPS)")
        }
        if case .position(let latitude, let longitude, let altitude) = mode {
            given.latitude = latitude
            given.longitude = longitude
            given.altitude = altitude
        }
        for pair in try options.values(set) { given.extra[pair.key] = pair.value }
        var policy = FieldPolicy(given: given, zone: try options.value(tz))
        policy.whereabouts.mode = mode
        policy.whereabouts.rules = FixRules(maxAge: try options.value(gpsMaxAge) ?? FixRules.defaultMaxAge,
                                            minAccuracy: try options.value(gpsMinAccuracy) ?? FixRules.defaultMinAccuracy)
        if let file = try options.value(sites) { policy.whereabouts.sites = try SiteMap(contentsOf: file) }
        if let context {
            policy.whereabouts.places = PlaceFinder.locate(environment: context.environment, dataFolder: context.resources.root)
        }
        return Values(fields: policy, templateChoice: try options.value(template), templateFolders: try options.values(templateDir),
                      gpsd: try options.value(gpsd) ?? ("localhost", GPSDReceiver.defaultPort))
    }
}

extension StampOptions {
    /// Forgets the place names when no template or file name of this run shows `{place}` (see
    /// `FieldPolicy.keepPlaceNames`); says how to install them when the chosen style or the name
    /// shows it and they are not installed. Likewise works out grid references only when shown.
    static func preparePlaces(_ values: inout Values, styles: [Template], chosen: Template, name: TextTemplate? = nil,
                              console: Console) {
        if values.fields.keepPlaceNames(ifShownBy: styles, chosen: chosen, name: name) {
            console.err(placeNamesMissing)
        }
        values.fields.keepGridReferences(ifShownBy: styles + [chosen], name: name)
    }

    /// How to give a variable that has none a value, after a template problem about it.
    static func advice(missingValue name: String?) -> String {
        name.map { " (--set \($0)=VALUE)" } ?? ""
    }

    /// The note for `{place}` shown without place names installed.
    static let placeNamesMissing = "stampcam: note: {place} stays empty: " + PlaceFinder.installHint
}
