import Location
import Platform

#if canImport(Glibc)
import Glibc
#endif

/// `stampcam places [LAT,LON] [--bench]`: where the place names come from and whether they are
/// installed; the nearest place to a position; with `--bench`, how long loading and a lookup take.
enum PlacesCommand: Command {
    static let bench = Flag("bench", help: marked("option", "time loading the index and 100000 lookups at random positions"))

    static let spec = CommandSpec(
        name: "places",
        usage: "places [LAT,LON] [--bench]",
        summary: marked("command", "Show the offline place names ({place}): their source, the nearest place to a position, their speed."),
        options: [bench])

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let finder = PlaceFinder.locate(environment: context.environment, dataFolder: context.resources.root)
        let console = context.console
        let status = finder.load()
        switch status {
        case .notInstalled:
            throw Failure(PlaceFinder.installHint, code: .unavailable)
        case .failed(let error):
            throw Failure(error.description, code: error.isUnreadable ? .noInput : .dataError)
        case .ready(let count, let skipped, let fromIndexFile, let seconds):
            console.out("place names: \(PathEncoding.display(finder.table ?? "")) (GeoNames, CC BY 4.0): \(count) places"
                + (skipped > 0 ? ", \(skipped) unreadable rows skipped" : ""))
            console.out("index: " + (fromIndexFile ? "read from " : "built and saved in ")
                + PathEncoding.display(finder.cacheFolder ?? "memory") + " in " + milliseconds(seconds))
        }
        if let text = options.positionals.first {
            guard case .position(let latitude, let longitude, _)? = GPSMode(text) else {
                throw UsageError.badValue(option: "places", value: text, expected: "LAT,LON in decimal degrees like 60.17,24.94")
            }
            if let (place, distance) = finder.gazetteer?.nearest(latitude: latitude, longitude: longitude) {
                let shown = distance <= PlaceFinder.maxDistance ? "" : " (beyond \(kilometres(PlaceFinder.maxDistance)): {place} stays empty)"
                console.out("nearest: \(place), \(kilometres(distance)) away" + shown)
            }
        }
        if options.flag(bench), let gazetteer = finder.gazetteer {
            let cold = WallClock.monotonic()
            _ = PlaceFinder(table: finder.table, cacheFolder: finder.cacheFolder).load()
            let load = WallClock.monotonic() - cold
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            func random() -> Double {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Double(state >> 11) / Double(1 << 53)
            }
            let count = 100_000
            var times: [Double] = []
            times.reserveCapacity(count)
            for _ in 0..<count {
                // Uniform over the sphere (oceans, where the search is longest, included).
                let latitude = asin(2 * random() - 1) * 180 / .pi, longitude = random() * 360 - 180
                let before = WallClock.monotonic()
                _ = gazetteer.nearest(latitude: latitude, longitude: longitude)
                times.append(WallClock.monotonic() - before)
            }
            let mean = times.reduce(0, +) / Double(count)
            times.sort()
            console.out("bench: index loaded in \(milliseconds(load)); \(count) lookups at random positions: mean "
                + "\(microseconds(mean)), median \(microseconds(times[count / 2])), 99th percentile \(microseconds(times[count * 99 / 100])), "
                + "slowest \(microseconds(times[count - 1]))")
        }
        return .success
    }

    static func kilometres(_ metres: Double) -> String {
        metres < 1000 ? "\(Int(metres.rounded())) m" : "\((metres / 100).rounded() / 10) km"
    }

    static func milliseconds(_ seconds: Double) -> String { "\((seconds * 10_000).rounded() / 10) ms" }
    static func microseconds(_ seconds: Double) -> String { "\((seconds * 10_000_000).rounded() / 10) µs" }
}

extension PlaceError {
    var isUnreadable: Bool {
        if case .cannotRead = self { return true }
        return false
    }
}
