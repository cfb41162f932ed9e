import Catalog
import Platform
import Session
import Values

/// The catalog's options: where it is (`--catalog`, also a config key), `--no-catalog` for the
/// commands that write photos, and the filters of `log`, `export` and `report`.
enum CatalogOptions {
    static let catalog = Option.text("catalog", value: "FILE",
                                     help: marked("option", "the photo catalog (default $XDG_DATA_HOME/stampcam/catalog.sqlite)"))
    static let noCatalog = Flag("no-catalog", help: marked("option", "do not log the photos in the catalog"))

    /// For `shoot`, `serve`, `apply` and `restamp`.
    static let writing: [any OptionDeclaration] = [catalog, noCatalog]

    /// The catalog file: `--catalog`, else the default place.
    static func path(_ options: ParsedOptions, context: Context) throws(UsageError) -> String {
        if let given = try options.value(catalog) {
            guard !given.isEmpty else { throw .badValue(option: "--catalog", value: given, expected: "a file name") }
            return given
        }
        return CatalogLocation.defaultPath(environment: context.environment)
    }

    /// The catalog file photos are logged in: nil with `--no-catalog`.
    static func writingPath(_ options: ParsedOptions, context: Context) throws(UsageError) -> String? {
        options.flag(noCatalog) ? nil : try path(options, context: context)
    }

    /// The log the photos of `command` go into; nil with `--no-catalog`.
    static func log(_ options: ParsedOptions, context: Context, command: CatalogEntry.Command) throws(UsageError) -> PhotoLogging? {
        guard !options.flag(noCatalog) else { return nil }
        return PhotoLogging(log: CatalogLog(path: try path(options, context: context)), command: command)
    }

    /// Says, after a command, how many photos were saved but not logged, and how to add them.
    static func tellMissed(_ logging: PhotoLogging?, folder: String, console: Console) {
        guard let log = logging?.log as? CatalogLog, log.missed > 0 else { return }
        let photos = log.missed == 1 ? "1 photo was" : "\(log.missed) photos were"
        var shown = PathEncoding.display(folder)
        if shown.contains(where: { " '\"$`\\".contains($0) }) { shown = "\"" + shown.replacing("\"", with: "\\\"") + "\"" }
        console.err("stampcam: warning: \(photos) saved but not logged in the catalog; "
            + "'stampcam log --rebuild \(shown)' adds them once the catalog can be written")
    }

    // MARK: filters

    static let project = Option.text("project", value: "NAME", help: marked("option", "only photos whose project holds NAME (case ignored)")).commandLineOnly()
    static let user = Option.text("user", value: "NAME", help: marked("option", "only photos taken by a user whose name holds NAME (case ignored)")).commandLineOnly()
    static let style = Option.text("style", value: "ID", help: marked("option", "only photos stamped in this style")).commandLineOnly()
    static let since = dateOption("since", help: marked("option", "only photos taken on or after DATE: 2026-11-29, a time, today, yesterday, monday …"))
    static let until = dateOption("until", help: marked("option", "only photos taken up to DATE (a day includes all of it)"))
    static let near = Option<CatalogFilter.Circle>("near", value: "LAT,LON,METRES",
                                                   help: marked("option", "only photos taken within METRES of a point, e.g. 48.8584,2.2945,500")) { text throws(UsageError) in
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { decimalNumber($0.filter { $0 != " " }) }
        guard parts.count == 3, let latitude = parts[0], let longitude = parts[1], let metres = parts[2],
              latitude.isFinite, longitude.isFinite, metres.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
              metres > 0, metres <= 20_100_000 else {
            throw .badValue(option: "--near", value: text,
                            expected: "LAT,LON,METRES in decimal degrees and metres, like 48.8584,2.2945,500")
        }
        return CatalogFilter.Circle(latitude: latitude, longitude: longitude, metres: metres)
    }.commandLineOnly()

    static let code = Option.text("code", value: "CODE", help: marked("option", "only the photo whose stamp shows this verification code (K7MN-4XRT-9P)"))
        .commandLineOnly()

    static let filters: [any OptionDeclaration] = [project, user, since, until, near, style, code]

    /// `typed` as a verification code (`k7mn 4xrt 9p` is `K7MN-4XRT-9P`); a usage error that says
    /// why when it cannot be one.
    static func verificationCode(_ typed: String) throws -> String {
        if let code = VerificationCode.normalized(typed) { return code }
        let shown = "'" + PathEncoding.display(typed) + "'"
        switch VerificationCode.flaw(typed) {
        case .length(let count)?:
            throw Failure(L("{1} is not a stampcam code: it has {2} of a code's characters, and a code has {3} (like K7MN-4XRT-9P)",
                            shown, count, VerificationCode.length), code: .usage)
        case .character(let character)?:
            throw Failure(L("{1} is not a stampcam code: a code has no '{2}' (it uses only {3})", shown,
                            PathEncoding.display(String(character)), String(VerificationCode.alphabet)), code: .usage)
        case nil:
            throw Failure(L("{1} is not a stampcam code", shown), code: .usage)
        }
    }

    /// `--tz` of `log`, `export` and `report` (the config's `tz` too): the zone camera times without one are read in.
    static let tz = Option<FieldPolicy.Zone>("tz", value: "ZONE",
                                             help: marked("option", "read camera times without a zone as taken in ZONE (+08:00, UTC, Asia/Shanghai): they are ordered and found by it")) { text throws(UsageError) in
        guard let zone = FieldPolicy.Zone(text) else {
            throw .badValue(option: "--tz", value: text, expected: "a zone like +08:00, UTC or Europe/Paris")
        }
        return zone
    }

    /// The zone camera times without one are read in: `--tz`, else the one assumed when each was logged.
    static func wallTimeZone(_ options: ParsedOptions) throws(UsageError) -> WallTimeZone {
        if let zone = try options.value(tz) {
            return WallTimeZone(isGiven: true) { zone.offsetMinutes(at: $0) }
        }
        return WallTimeZone(isGiven: false) { FieldPolicy.localOffsetMinutes(forWallTime: $0) }
    }

    private static func dateOption(_ long: String, help: String) -> Option<DateArgument> {
        Option<DateArgument>(long, value: "DATE", help: help) { text throws(UsageError) in
            guard let date = DateArgument(text, now: WallClock.now().secondsSinceEpoch, localOffset: WallClock.localOffsetMinutes) else {
                throw .badValue(option: "--\(long)", value: text,
                                expected: "a date like 2026-11-29, a time like 2026-11-29T14:00, today, yesterday or a weekday")
            }
            return date
        }.commandLineOnly()
    }

    /// The filter the options describe.
    static func filter(_ options: ParsedOptions) throws -> CatalogFilter {
        var filter = CatalogFilter(project: try options.value(project), user: try options.value(user), style: try options.value(style),
                                   near: try options.value(near))
        filter.code = try options.value(code).map(verificationCode)
        filter.since = try options.value(since)?.start(localOffset: WallClock.localOffsetMinutes)
        filter.until = try options.value(until)?.end(localOffset: WallClock.localOffsetMinutes)
        // An empty range is a mistake (the dates swapped), not a question whose answer is "none".
        if let start = filter.since, let end = filter.until, end <= start {
            throw UsageError.badValue(option: "--until", value: options.values["until"]?.last ?? "",
                            expected: "after --since '\(options.values["since"]?.last ?? "")' (swap them?)")
        }
        return filter
    }

    /// Whether any filter was given.
    static func filtered(_ options: ParsedOptions) -> Bool {
        filters.contains { options.values[$0.spec.long] != nil }
    }

    /// The catalog at `path` opened to read, nil when there is none yet. A catalog that cannot be
    /// read is a missing input (exit 66).
    static func openForReading(_ path: String) throws -> Catalog? {
        // No file (or the empty one a failed first write leaves): nothing logged yet.
        guard let status = FileStatus(path: FilePath(path)), !(status.isRegular && status.size == 0) else { return nil }
        do { return try Catalog(reading: path) } catch {
            if case .cannotOpen = error { throw Failure(error.description, code: .noInput) }
            throw error
        }
    }
}
