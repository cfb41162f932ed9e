import Location
import Testing

/// When a fix is stamped: its age, its accuracy, the clock; and the `--gps` forms.
struct FixRulesTests {
    static func fix(error: Double? = 8, at received: Double = 100, gpsTime: Double? = nil, wall: Double = 1_700_000_000) -> GPSFix {
        GPSFix(latitude: 48.85, longitude: 2.29, altitude: 35, horizontalError: error, track: 45, gpsTime: gpsTime,
               receivedAt: wall, receivedMonotonic: received)
    }

    static let rules = FixRules(maxAge: 10, minAccuracy: 50)

    @Test("a fresh, accurate fix is used")
    func usable() {
        #expect(Self.rules.judge(FixReading(fix: Self.fix(), connected: true), now: 105).fix != nil)
        #expect(Self.rules.judge(FixReading(fix: Self.fix(error: 50), connected: true), now: 110).fix != nil, "both limits included")
    }

    @Test("too old, too inaccurate, accuracy unknown, none yet, no gpsd: not used, and why")
    func unusable() {
        #expect(Self.rules.judge(FixReading(fix: Self.fix(), connected: true), now: 110.5) == .unusable(.stale(age: 10.5, limit: 10)))
        #expect(Self.rules.judge(FixReading(fix: Self.fix(error: 50.5), connected: true), now: 101) == .unusable(.inaccurate(metres: 50.5, limit: 50)))
        #expect(Self.rules.judge(FixReading(fix: Self.fix(error: nil), connected: true), now: 101) == .unusable(.accuracyUnknown))
        #expect(Self.rules.judge(FixReading(fix: nil, connected: true), now: 101) == .unusable(.noFixYet))
        #expect(Self.rules.judge(FixReading(fix: nil, connected: false, problem: "connection refused"), now: 101)
                == .unusable(.notConnected("connection refused")))
        // A stale fix connected or not: its age is what counts.
        #expect(Self.rules.judge(FixReading(fix: Self.fix(), connected: false), now: 111) == .unusable(.stale(age: 11, limit: 10)))
    }

    @Test("what the viewfinders say", arguments: [
        (FixProblem.stale(age: 14.2, limit: 10), "no GPS fix: the last one is 14 s old (limit 10 s)"),
        (.stale(age: 250, limit: 10), "no GPS fix: the last one is 4 min 10 s old (limit 10 s)"),
        (.inaccurate(metres: 152, limit: 50), "no usable GPS fix: it is only accurate to 152 m (limit 50 m)"),
        (.noFixYet, "no GPS fix yet"),
        (.notConnected("connection refused"), "no GPS fix: gpsd does not answer (connection refused)"),
    ])
    func words(_ problem: FixProblem, _ text: String) {
        #expect(problem.description == text)
    }

    @Test("a receiver's hostile error estimate or time: never a trap, never used", arguments: [
        1e19, 1e308, .infinity, -.infinity, .nan, -0.0, 9.3e18,
    ])
    func hostileEstimate(_ value: Double) {
        let judged = Self.rules.judge(FixReading(fix: Self.fix(error: value), connected: true), now: 101)
        if value.isFinite && value <= 50 {
            #expect(judged.fix != nil)
        } else {
            #expect(judged.fix == nil, "\(value)")
            if case .unusable(let problem) = judged { #expect(problem.description.hasPrefix("no usable GPS fix")) }
        }
        #expect(FixProblem.inaccurate(metres: value, limit: 50).description.hasPrefix("no usable GPS fix: it is only accurate to "))
        #expect(FixProblem.stale(age: value, limit: 10).description.hasPrefix("no GPS fix: the last one is "))
        _ = Self.rules.clockWarning(Self.fix(gpsTime: value))
    }

    @Test("the words for an error estimate past every integer", arguments: [
        (1e19, "no usable GPS fix: it is only accurate to 1e+19 m (limit 50 m)"),
        (152.4, "no usable GPS fix: it is only accurate to 152 m (limit 50 m)"),
        (.infinity, "no usable GPS fix: it is only accurate to inf m (limit 50 m)"),
    ])
    func hugeEstimate(_ metres: Double, _ text: String) {
        #expect(FixProblem.inaccurate(metres: metres, limit: 50).description == text)
    }

    @Test("GPS time and the clock: up to 2 s apart is quiet, more is a warning saying which way")
    func clock() {
        #expect(Self.rules.clockWarning(Self.fix(gpsTime: 1_700_000_001.9)) == nil)
        #expect(Self.rules.clockWarning(Self.fix(gpsTime: nil)) == nil)
        #expect(Self.rules.clockWarning(Self.fix(gpsTime: 1_700_000_002.5))?.hasPrefix("the clock is 3 s behind GPS time") == true)
        #expect(Self.rules.clockWarning(Self.fix(gpsTime: 1_700_000_000 - 86_400 * 3))?.hasPrefix("the clock is 3 days ahead of GPS time") == true)
    }

    @Test("--gps forms", arguments: [
        ("auto", GPSMode.auto), ("require", .require), ("off", .off),
        ("48.8584,2.2945", .position(latitude: 48.8584, longitude: 2.2945, altitude: nil)),
        ("-33.86, 151.21, -12.5", .position(latitude: -33.86, longitude: 151.21, altitude: -12.5)),
        ("90,-180", .position(latitude: 90, longitude: -180, altitude: nil)),
    ])
    func modes(_ text: String, _ mode: GPSMode) {
        #expect(GPSMode(text) == mode)
    }

    @Test("what --gps refuses", arguments: ["", "on", "48.8", "91,0", "0,180.1", "nan,0", "inf,0", "1,2,3,4", "1,2,1e9", "1,,2", "AUTO"])
    func refused(_ text: String) {
        #expect(GPSMode(text) == nil)
    }
}
