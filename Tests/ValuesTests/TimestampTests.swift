import Testing
import Values

@Suite struct TimestampTests {
    @Test("ISO 8601 from the command line", arguments: [
        ("2026-11-29T14:03:12+08:00", Timestamp(year: 2026, month: 11, day: 29, hour: 14, minute: 3, second: 12, utcOffsetMinutes: 480)),
        ("2026-11-29T14:03:12Z", Timestamp(year: 2026, month: 11, day: 29, hour: 14, minute: 3, second: 12, utcOffsetMinutes: 0)),
        ("2026-11-29 14:03:12-0330", Timestamp(year: 2026, month: 11, day: 29, hour: 14, minute: 3, second: 12, utcOffsetMinutes: -210)),
        ("2026-11-29T14:03:12.250+05", Timestamp(year: 2026, month: 11, day: 29, hour: 14, minute: 3, second: 12, utcOffsetMinutes: 300)),
        ("2026-11-29T14:03", Timestamp(year: 2026, month: 11, day: 29, hour: 14, minute: 3, second: 0)),
        ("2024-02-29T00:00:00", Timestamp(year: 2024, month: 2, day: 29, hour: 0, minute: 0, second: 0)),
    ])
    func iso(text: String, expected: Timestamp) {
        #expect(Timestamp(iso8601: text) == expected)
    }

    @Test("malformed times are refused", arguments: [
        "", "2026-11-29", "2026-13-01T00:00:00", "2025-02-29T10:00:00", "2026-11-29T24:00:00",
        "2026-11-29T14:03:12+8", "2026-11-29T14:03:12 +08:00", "29/11/2026 14:03", "2026-11-29T14:03:12+08:00junk",
    ])
    func malformed(text: String) {
        #expect(Timestamp(iso8601: text) == nil)
    }

    @Test("EXIF date with and without OffsetTimeOriginal")
    func exif() {
        #expect(Timestamp(exif: "2022:08:14 14:12:31", offset: "+03:00") ==
                Timestamp(year: 2022, month: 8, day: 14, hour: 14, minute: 12, second: 31, utcOffsetMinutes: 180))
        #expect(Timestamp(exif: "2022:08:14 14:12:31")?.utcOffsetMinutes == nil)
        #expect(Timestamp(exif: "0000:00:00 00:00:00") == nil)
        #expect(Timestamp(exif: "    :  :     :  :  ") == nil)
    }

    @Test("formatting")
    func formatting() throws {
        let time = try #require(Timestamp(iso8601: "2026-01-02T03:04:05-03:30"))
        #expect(time.dateText == "2026-01-02")
        #expect(time.timeText == "03:04:05")
        #expect(time.offsetText == "-03:30")
        #expect(Timestamp(iso8601: "2026-01-02T03:04:05Z")?.offsetText == "UTC")
        #expect(Timestamp(iso8601: "2026-01-02T03:04:05")?.offsetText == "")
    }
}

@Suite struct TimeArithmeticTests {
    @Test("converting between zones keeps the instant")
    func convert() throws {
        let time = try #require(Timestamp(iso8601: "2026-01-01T01:30:00+08:00"))
        #expect(time.converted(toOffsetMinutes: 0) == Timestamp(iso8601: "2025-12-31T17:30:00Z"))
        #expect(time.converted(toOffsetMinutes: -330) == Timestamp(iso8601: "2025-12-31T12:00:00-05:30"))
        #expect(Timestamp(iso8601: "2026-03-01T10:00:00")?.converted(toOffsetMinutes: 60) == Timestamp(iso8601: "2026-03-01T10:00:00+01:00"))
        #expect(Timestamp(iso8601: "1970-01-01T00:00:00Z")?.secondsSinceEpoch == 0)
        #expect(Timestamp(iso8601: "2024-02-29T12:00:00Z")?.secondsSinceEpoch == 1_709_208_000)
    }

    @Test("weekday and day of the year, across leap years and before 1970")
    func calendar() throws {
        let leapDay = try #require(Timestamp(iso8601: "2024-02-29T12:00:00"))
        #expect(leapDay.weekday == 4 && leapDay.dayOfYear == 60)  // a Thursday
        let newYear = try #require(Timestamp(iso8601: "2026-01-01T00:00:00"))
        #expect(newYear.weekday == 4 && newYear.dayOfYear == 1)
        let old = try #require(Timestamp(iso8601: "1969-12-31T23:59:59Z"))
        #expect(old.weekday == 3 && old.dayOfYear == 365 && old.secondsSinceEpoch == -1)
        #expect(Timestamp(secondsSinceEpoch: -1, utcOffsetMinutes: 0) == old)
    }

    @Test("offsets as EXIF, strftime's %z and people write them")
    func offsets() throws {
        let east = try #require(Timestamp(iso8601: "2026-01-02T03:04:05+05:30"))
        #expect(east.exifOffset == "+05:30" && east.compactOffset == "+0530" && east.offsetText == "+05:30")
        let utc = try #require(Timestamp(iso8601: "2026-01-02T03:04:05Z"))
        #expect(utc.exifOffset == "+00:00" && utc.compactOffset == "+0000" && utc.offsetText == "UTC" && utc.iso8601 == "2026-01-02T03:04:05Z")
        let unknown = try #require(Timestamp(iso8601: "2026-01-02T03:04:05"))
        #expect(unknown.exifOffset == "" && unknown.compactOffset == "" && unknown.exifText == "2026:01:02 03:04:05")
    }
}
