import Glibc
import Testing
@testable import Platform

/// Named zones come from the system's tzdata (through GLib), daylight saving time included.
@Suite struct ZoneTests {
    // 2026-01-15 and 2026-07-15, 12:00 UTC.
    static let winter = 1_768_478_400, summer = 1_784_116_800

    @Test("A named zone's offset follows its rules: Berlin +60 in winter, +120 in summer; Shanghai +480; Kolkata +330")
    func namedZones() {
        #expect(WallClock.offsetMinutes(zone: "Europe/Berlin", at: Self.winter) == 60)
        #expect(WallClock.offsetMinutes(zone: "Europe/Berlin", at: Self.summer) == 120)
        #expect(WallClock.offsetMinutes(zone: "America/New_York", at: Self.summer) == -240)
        #expect(WallClock.offsetMinutes(zone: "Asia/Shanghai", at: Self.summer) == 480)
        #expect(WallClock.offsetMinutes(zone: "Asia/Kolkata", at: Self.winter) == 330)
        #expect(WallClock.offsetMinutes(zone: "America/Argentina/Buenos_Aires", at: Self.winter) == -180)
    }

    @Test("Unknown names and names that are paths are no zone; a FIFO named by an absolute path is never opened",
          arguments: ["Nope/Zone", "", "Europe/../../../etc/passwd", "../zoneinfo/UTC", "/dev/zero", ":/dev/zero", "Europe/",
                      "Europe//Berlin", "Europe/Berlin\u{0}", "Ευρώπη/Αθήνα", String(repeating: "A", count: 200)])
    func notZones(name: String) {
        #expect(WallClock.offsetMinutes(zone: name, at: Self.summer) == nil)
    }

    @Test("An absolute path to a FIFO does not hang the lookup")
    func fifo() throws {
        let path = "/tmp/stampcam-zone-fifo-\(getpid())"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(WallClock.offsetMinutes(zone: path, at: Self.summer) == nil)
    }
}
