import Location
import Platform
import Session

/// `stampcam sites check FILE...` validates GeoJSON site files; `stampcam sites which LAT,LON`
/// says which site of `--sites FILE` (or the config's `sites`) a position is on, its grid reference
/// and the nearest place.
enum SitesCommand: Command {
    static let sitesFile = Option.text("sites", value: "FILE", help: marked("option", "the GeoJSON sites file for 'which'"))

    static let spec = CommandSpec(
        name: "sites",
        usage: "sites check FILE... | sites which LAT,LON [--sites FILE]",
        summary: marked("command", "Check GeoJSON site files, or tell which site (grid reference, nearest place) a position is on."),
        options: [sitesFile])

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let arguments = options.positionals
        switch arguments.first {
        case "check":
            let files = arguments.dropFirst()
            guard !files.isEmpty else { throw UsageError.missing("a GeoJSON file: sites check FILE", command: spec.name) }
            var problems: [Failure] = []
            for file in files {
                do {
                    let map = try SiteMap(contentsOf: file)
                    for warning in map.warnings { context.console.err("stampcam: warning: " + warning) }
                    show("\(map.file): ok, \(map.sites.count) site\(map.sites.count == 1 ? "" : "s")", context)
                    for site in map.sites { show("  " + describe(site), context) }
                } catch {
                    problems.append(Failure(error, path: file))
                }
            }
            for problem in problems { context.console.err("stampcam: " + problem.message) }
            return Failure.exitCode(for: problems)
        case "which":
            guard arguments.count == 2 else { throw UsageError.missing("a position: sites which LAT,LON", command: spec.name) }
            guard case .position(let latitude, let longitude, _)? = GPSMode(arguments[1]) else {
                throw UsageError.badValue(option: "which", value: arguments[1], expected: "LAT,LON in decimal degrees like 48.8584,2.2945")
            }
            guard let file = try options.value(sitesFile) else {
                throw UsageError.missing("--sites FILE (or \"sites\" in the config file)", command: spec.name)
            }
            let map = try SiteMap(contentsOf: file)
            if let site = map.site(latitude: latitude, longitude: longitude) {
                show(describe(site), context)
            } else {
                show("no site of \(map.file) at \(arguments[1])", context)
            }
            do {
                if let grid = try GridReference.position(latitude: latitude, longitude: longitude) {
                    show("grid: UTM \(grid.utmText), MGRS \(grid.mgrs())", context)
                } else {
                    show("grid: none beyond 84°N and 80°S (UPS, which stampcam does not write)", context)
                }
            } catch {
                let package = if case .libraryMissing = error { "libproj25" } else { "proj-data" }
                context.console.err("stampcam: note: \(error); for grid references: sudo apt-get install \(package)")
            }
            let places = PlaceFinder.locate(environment: context.environment, dataFolder: context.resources.root)
            if let place = places.place(latitude: latitude, longitude: longitude) {
                let distance = Geodesy.distance(latitude: latitude, longitude: longitude, latitude: place.latitude, longitude: place.longitude)
                show("nearest place: \(place) (\(PlacesCommand.kilometres(distance)))", context)
            } else if case .notInstalled = places.load() {
                context.console.err("stampcam: note: " + PlaceFinder.installHint)
            }
            return .success
        default:
            throw UsageError.missing("the subcommand 'check' or 'which'", command: spec.name)
        }
    }

    /// One line of the answer. Names and addresses come from the file: control characters in them
    /// (an escape sequence, a bell) are shown as `\xNN`, as `log` shows them, never sent to the terminal.
    private static func show(_ line: String, _ context: Context) {
        context.console.out(PathEncoding.display(line))
    }

    /// `North yard: polygon, 1.2 ha (feature 2); project Bridge 7; address 1 Quay St`
    static func describe(_ site: Site) -> String {
        var text = site.name + ": "
        switch site.shape {
        case .circle(_, _, let radius): text += "point, radius \(Self.number(radius)) m"
        case .polygons(let polygons):
            let holes = polygons.reduce(0) { $0 + $1.rings.count - 1 }
            text += polygons.count == 1 ? "polygon" : "\(polygons.count) polygons"
            if holes > 0 { text += " with \(holes) hole\(holes == 1 ? "" : "s")" }
            text += ", " + area(site.area)
        }
        text += " (feature \(site.index))"
        if let project = site.project { text += "; project \(project)" }
        if let address = site.address { text += "; address \(address)" }
        return text
    }

    static func area(_ squareMetres: Double) -> String {
        if squareMetres < 10_000 { return "\(Self.number(squareMetres)) m²" }
        if squareMetres < 1_000_000 { return "\(Self.number(squareMetres / 10_000)) ha" }
        return "\(Self.number(squareMetres / 1_000_000)) km²"
    }

    static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "\(value)" }
        if value >= 100 { return "\(Int(value.rounded()))" }
        return "\((value * 10).rounded() / 10)"
    }
}
