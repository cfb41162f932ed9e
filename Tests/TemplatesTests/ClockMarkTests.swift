import Testing
import Templates
import Values

/// "Time you can trust": a clock more than a minute from GPS time is marked after the time.
@Suite struct ClockMarkTests {
    static func fields(source: String = "camera clock", difference: Double?) -> Fields {
        var fields = Fields(time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00"), timeSource: source)
        fields.clockDifference = difference
        return fields
    }

    @Test("the clock's time further than a minute from GPS is marked, in the unit that fits", arguments: [
        (3 * 3600.0, "clock differs from GPS by 3 h"), (-3 * 3600.0, "clock differs from GPS by 3 h"),
        (61, "clock differs from GPS by 1 min"), (-754, "clock differs from GPS by 13 min"),
        (5 * 86400 + 100, "clock differs from GPS by 5 days"), (1e300, "clock differs from GPS by 1000000000 days"),
    ] as [(Double, String)])
    func marked(_ difference: Double, _ mark: String) {
        #expect(Self.fields(difference: difference).timeMark(.standard) == mark)
        #expect(Self.fields(source: "clock", difference: difference).timeMark(.standard) == mark)  // a preview's
    }

    @Test("within a minute, without a GPS time, or a time not the clock's (EXIF, given by hand): no clock mark", arguments: [
        ("camera clock", 59.9 as Double?), ("camera clock", -60), ("camera clock", nil), ("camera clock", .nan),
        ("EXIF", 3 * 3600), ("command line", 3 * 3600),
    ] as [(String, Double?)])
    func unmarked(_ source: String, _ difference: Double?) {
        #expect(Self.fields(source: source, difference: difference).timeMark(.standard) == nil)
    }

    @Test("a time given by hand keeps its own mark, whatever the clock")
    func givenWins() {
        #expect(Self.fields(source: Fields.givenTimeSource, difference: 7200).timeMark(.standard) == TimeStyle.defaultGivenTimeMark)
    }
}
