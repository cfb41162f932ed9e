import Foundation
import Testing
import TestSupport

/// The Makefile as make reads it in a fresh clone: its rules' prerequisites once expanded.
@Suite struct MakefileTests {
    static let hasMake = FileManager.default.isExecutableFile(atPath: "/usr/bin/make")

    @Test("make run builds the place-name table first (a variable used before it is defined expands to nothing)",
          .enabled(if: Self.hasMake, "make is not installed"))
    func runBuildsPlaces() throws {
        // -p prints the database as read, -q runs no recipe.
        let database = try CLI.shell("make -p -q -C \(CLI.quoted(TestFiles.packageRoot)) run 2>/dev/null").out
        let table = database.first { $0.hasPrefix("PLACES_TABLE = ") }.map { String($0.dropFirst("PLACES_TABLE = ".count)) }
        let run = database.first { $0.hasPrefix("run:") }
        #expect(table?.isEmpty == false, "the Makefile defines no PLACES_TABLE")
        #expect(run?.split(separator: " ").dropFirst().contains { $0 == table ?? "" } == true,
                "\(run ?? "no rule for run"); the table is \(table ?? "?")")
    }
}
