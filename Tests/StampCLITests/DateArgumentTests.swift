import Catalog
@testable import StampCLI
import Library
import Templates
import Testing
import Values

/// `--since`/`--until` words and dates, against a fixed clock and zone; the log table's columns.
@Suite struct DateArgumentTests {
    /// Wednesday 2026-11-25 15:30 in a zone of +01:00 (14:30 UTC).
    static let now = Timestamp(iso8601: "2026-11-25T14:30:00Z")!.secondsSinceEpoch!
    static func paris(_: Int) -> Int { 60 }

    static func day(_ text: String) -> String? {
        guard case .day(let year, let month, let day)? = DateArgument(text, now: now, localOffset: paris) else { return nil }
        return "\(year)-\(zeroPadded(month))-\(zeroPadded(day))"
    }

    @Test("words and dates name days", arguments: [
        ("today", "2026-11-25"), ("yesterday", "2026-11-24"), ("Wednesday", "2026-11-25"), ("monday", "2026-11-23"),
        ("thu", "2026-11-19"), ("sunday", "2026-11-22"), ("2026-02-28", "2026-02-28"),
    ])
    func days(text: String, expected: String) {
        #expect(Self.day(text) == expected)
    }

    @Test("not dates", arguments: ["", "tomorrow-ish", "2026-02-30", "mo", "last week", "2026-11-25T25:00"])
    func notDates(text: String) {
        #expect(DateArgument(text, now: Self.now, localOffset: Self.paris) == nil)
    }

    @Test("a day runs from local midnight to the next; a moment is its own second; a moment without a zone is local")
    func bounds() throws {
        let monday = try #require(DateArgument("monday", now: Self.now, localOffset: Self.paris))
        #expect(monday.start(localOffset: Self.paris) == Timestamp(iso8601: "2026-11-22T23:00:00Z")!.secondsSinceEpoch!)
        #expect(monday.end(localOffset: Self.paris) == Timestamp(iso8601: "2026-11-23T23:00:00Z")!.secondsSinceEpoch!)
        let moment = try #require(DateArgument("2026-11-29T14:00:00+08:00", now: Self.now, localOffset: Self.paris))
        #expect(moment.start(localOffset: Self.paris) == Timestamp(iso8601: "2026-11-29T06:00:00Z")!.secondsSinceEpoch!)
        #expect(moment.end(localOffset: Self.paris) == Timestamp(iso8601: "2026-11-29T06:00:01Z")!.secondsSinceEpoch!)
        let local = try #require(DateArgument("2026-11-29T14:00", now: Self.now, localOffset: Self.paris))
        #expect(local.start(localOffset: Self.paris) == Timestamp(iso8601: "2026-11-29T13:00:00Z")!.secondsSinceEpoch!)
        // A day that starts in summer time and ends in winter time (Europe, 2026-10-25) is 25 hours long.
        let dst: (Int) -> Int = { $0 < Timestamp(iso8601: "2026-10-25T01:00:00Z")!.secondsSinceEpoch! ? 120 : 60 }
        let changeover = try #require(DateArgument("2026-10-25", now: Self.now, localOffset: dst))
        #expect(changeover.end(localOffset: dst) - changeover.start(localOffset: dst) == 25 * 3600)
    }

    @Test("the terminal table lines up CJK names (two columns a character) and cuts long paths at the front")
    func table() {
        let entries = [
            CatalogEntry(path: "/very/long/folder/name/that/goes/on/IMG_0001.jpg", size: 1, sha256: "", command: .apply,
                         time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00"), user: "山田太郎", project: "Bridge 7", location: "Pier 4"),
            CatalogEntry(path: "/b.jpg", size: 1, sha256: "", command: .shoot, user: "Li\u{1B}[31m", latitude: 1.5, longitude: -2.25),
        ]
        // A direction mark in a value would turn the rest of its line around: shown escaped.
        let turned = CatalogEntry(path: "/c.jpg", size: 1, sha256: "", command: .shoot, user: "Eve\u{202E}gpj.exe")
        #expect(LogCommand.table([turned], width: 100, relativeTo: nil)[1].contains("Eve\\u{202E}gpj.exe"))
        let lines = LogCommand.table(entries, width: 100, relativeTo: nil)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { TextWidth.columns($0) <= 100 })
        // PATH starts in the same column on every line.
        let starts = lines.map { line in TextWidth.columns(String(line[..<(line.range(of: "  /") ?? line.range(of: "  PATH") ?? line.range(of: "  …")!).lowerBound])) }
        #expect(Set(starts).count == 1, "\(lines)")
        #expect(lines[1].hasSuffix("/IMG_0001.jpg") && lines[1].contains("  …"), "\(lines[1])")
        #expect(lines[2].contains("Li\\x1B[31m") && lines[2].contains("1.500000, -2.250000"))
        #expect(TextWidth.fitted("/a/b/c/IMG_0001.jpg", width: 13, keepingEnd: true) == "…IMG_0001.jpg")
        #expect(LogCommand.table(entries, width: 200, relativeTo: "/very/long")[1].hasSuffix("  folder/name/that/goes/on/IMG_0001.jpg"))
        #expect(TextWidth.fitted("山田太郎", width: 5) == "山田…" && TextWidth.columns("山田…") == 5)
    }

    @Test("the table fits the terminal's width: narrow, every line fits and the time is whole; wide, long names are whole")
    func tableWidth() {
        let project = "Bridge 7 — north approach, piers 4 and 5"
        let entries = [
            CatalogEntry(path: "/site/2026/11/IMG_0001.jpg", size: 1, sha256: "", command: .apply,
                         time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00"), user: "Inspector Li Wei", project: project,
                         location: "Harbour road, pier 4, north side"),
        ]
        let narrow = LogCommand.table(entries, width: 72, relativeTo: nil)
        #expect(narrow.allSatisfy { TextWidth.columns($0) <= 72 }, "\(narrow)")
        #expect(narrow[1].hasPrefix("2026-11-29 14:03:12 +08:00  "))
        let wide = LogCommand.table(entries, width: 200, relativeTo: nil)
        #expect(wide[1].contains(project) && wide[1].contains("Harbour road, pier 4, north side"), "\(wide)")
        #expect(LogCommand.tableWidth(["COLUMNS": "132"]) == 132)
    }
}
