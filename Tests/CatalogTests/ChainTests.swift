@testable import Catalog
import Foundation
import Testing
import TestSupport

/// The log's hash chain: each way a row can be removed, added or altered behind stampcam's back is
/// named by `verifyChain`; the tampering is done with Python's sqlite3, as a forger would.
@Suite struct ChainTests {
    /// A catalog of `count` photos logged one by one.
    static func logged(_ count: Int, in folder: String, name: String = "chain.sqlite", host: String = "here") throws -> (Catalog, String) {
        let path = folder + "/" + name
        let catalog = try Catalog(path: path)
        for index in 1...count {
            try catalog.add(CatalogEntry(path: "/\(host)/\(index).jpg", size: index, sha256: CatalogTests.digest(index), command: .shoot,
                                         project: "P", host: host))
        }
        return (catalog, path)
    }

    /// Runs `sql` on the catalog file from outside stampcam.
    static func tamper(_ path: String, _ sql: String) throws {
        let result = try ExternalTool.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executescript(sys.argv[2])
            db.commit()
            """, [path, sql])
        #expect(result.status == 0, "\(result.err)")
    }

    static func id(_ path: String, _ photo: String) throws -> Int {
        let out = try ExternalTool.python("""
            import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute("SELECT id FROM photos WHERE path = ?", (sys.argv[2],)).fetchone()[0])
            """, [path, photo]).out
        return try #require(Int(out.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// (row id, kind) of each problem a fresh reader finds.
    static func problems(_ path: String) throws -> [(Int, ChainProblem.Kind)] {
        try Catalog(reading: path).verifyChain().problems.map { ($0.id, $0.kind) }
    }

    @Test("a catalog written by stampcam verifies; each row links to the one before, from the genesis value; the head is the newest row's hash")
    func intact() throws {
        let (catalog, path) = try Self.logged(4, in: try CatalogTests.folder())
        let report = try catalog.verifyChain()
        #expect(report == ChainReport(problems: [], chained: 4, unchained: 0, chains: 1))
        let rows = try ExternalTool.python("""
            import sqlite3, sys
            for r in sqlite3.connect(sys.argv[1]).execute("SELECT link, previous_hash, row_hash FROM photos ORDER BY link"): print(*r)
            """, [path]).out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.map { $0[0] } == ["1", "2", "3", "4"])
        #expect(rows[0][1] == String(repeating: "0", count: 64))
        for index in 1..<4 { #expect(rows[index][1] == rows[index - 1][2]) }
        #expect(try catalog.chainHead == rows[3][2])
        #expect(Set(rows.map { $0[2] }).count == 4)
    }

    @Test("a deleted, inserted, changed, moved, re-pointed or re-hashed row is named, each by its id")
    func tampering() throws {
        let folder = try CatalogTests.folder()
        let (_, deleted) = try Self.logged(4, in: folder, name: "deleted.sqlite")
        let third = try Self.id(deleted, "/here/3.jpg")
        try Self.tamper(deleted, "DELETE FROM photos WHERE path = '/here/2.jpg'")
        #expect(try Self.problems(deleted).map(\.0) == [third])
        #expect(try Self.problems(deleted).map(\.1) == [.missingBefore])

        // Mending the gap by pointing the next row at the one before the deleted row breaks that row's hash.
        let (_, mended) = try Self.logged(4, in: folder, name: "mended.sqlite")
        try Self.tamper(mended, """
            DELETE FROM photos WHERE link = 2;
            UPDATE photos SET previous_hash = (SELECT row_hash FROM photos WHERE link = 1) WHERE link = 3;
            """)
        #expect(try Self.problems(mended).map(\.0) == [try Self.id(mended, "/here/3.jpg")])
        #expect(try Self.problems(mended).map(\.1) == [.changed])

        let (_, first) = try Self.logged(3, in: folder, name: "first.sqlite")
        try Self.tamper(first, "DELETE FROM photos WHERE link = 1")
        #expect(try Self.problems(first).map(\.1) == [.missingBefore])

        let (_, inserted) = try Self.logged(3, in: folder, name: "inserted.sqlite")
        try Self.tamper(inserted, "INSERT INTO photos (path, size, sha256, command) VALUES ('/here/late.jpg', 1, '\(CatalogTests.digest(99))', 'shoot')")
        #expect(try Self.problems(inserted).map(\.0) == [try Self.id(inserted, "/here/late.jpg")])
        #expect(try Self.problems(inserted).map(\.1) == [.outsideChain])

        let (_, changed) = try Self.logged(3, in: folder, name: "changed.sqlite")
        try Self.tamper(changed, "UPDATE photos SET time = '2020-01-01T00:00:00+00:00', time_utc = 1577836800 WHERE path = '/here/2.jpg'")
        #expect(try Self.problems(changed).map(\.0) == [try Self.id(changed, "/here/2.jpg")])
        #expect(try Self.problems(changed).map(\.1) == [.changed])

        let (_, swapped) = try Self.logged(4, in: folder, name: "swapped.sqlite")
        try Self.tamper(swapped, """
            UPDATE photos SET link = 100 WHERE link = 2; UPDATE photos SET link = 2 WHERE link = 3; UPDATE photos SET link = 3 WHERE link = 100;
            """)
        let two = try Self.id(swapped, "/here/2.jpg"), three = try Self.id(swapped, "/here/3.jpg")
        #expect(Set(try Self.problems(swapped).map(\.0)) == [two, three, try Self.id(swapped, "/here/4.jpg")])

        // A forger who knows the scheme changes a row and makes its own hash match, but cannot
        // change the next row's previous hash without re-hashing the rest of the chain.
        let (_, forged) = try Self.logged(4, in: folder, name: "forged.sqlite")
        let catalog = try Catalog(reading: forged)
        try Self.tamper(forged, "UPDATE photos SET project = 'Forged' WHERE path = '/here/2.jpg'")
        let row = try #require(try catalog.entries().entries.first { $0.path == "/here/2.jpg" })
        let link = try Self.link(forged, "/here/2.jpg")
        let rehash = Chain.hash(row, code: nil, chain: link.chain, position: link.position, previous: link.previous, supersedes: nil)
        try Self.tamper(forged, "UPDATE photos SET row_hash = '\(rehash)' WHERE path = '/here/2.jpg'")
        let found = try Catalog(reading: forged).verifyChain().problems
        #expect(found.map(\.id) == [try Self.id(forged, "/here/3.jpg")])
        #expect(found.map(\.kind) == [.brokenLink])
        #expect(found.first?.other?.id == (try Self.id(forged, "/here/2.jpg")))
        #expect(found.first?.description.contains("/here/2.jpg") == true)
    }

    static func link(_ path: String, _ photo: String) throws -> ChainLink {
        let out = try ExternalTool.python("""
            import sqlite3, sys
            print(*sqlite3.connect(sys.argv[1]).execute("SELECT chain, link, previous_hash, row_hash FROM photos WHERE path = ?", (sys.argv[2],)).fetchone())
            """, [path, photo]).out.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        return ChainLink(chain: out[0], position: try #require(Int(out[1])), previous: out[2], own: out[3])
    }

    @Test("finishing a photo's save (its original added) re-chains the row as the newest link that names the one it supersedes")
    func finished() throws {
        let (catalog, path) = try Self.logged(3, in: try CatalogTests.folder())
        let before = try Self.link(path, "/here/2.jpg")
        var finished = CatalogEntry(path: "/here/2.jpg", size: 2, sha256: CatalogTests.digest(2), command: .shoot, project: "P", host: "here")
        finished.originalPath = "/here/2.original.jpg"
        finished.originalSHA256 = CatalogTests.digest(50)
        #expect(try catalog.add(finished))
        let after = try Self.link(path, "/here/2.jpg")
        #expect(after.position == 4)
        #expect(try catalog.chainHead == after.own)
        let supersedes = try ExternalTool.python("""
            import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute("SELECT supersedes FROM photos WHERE path = '/here/2.jpg'").fetchone()[0])
            """, [path]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(supersedes == before.own)
        #expect(try catalog.verifyChain() == ChainReport(problems: [], chained: 3, unchained: 0, chains: 1))
        // Its earlier link cannot be passed off as superseded by another row.
        try Self.tamper(path, "UPDATE photos SET supersedes = NULL WHERE path = '/here/2.jpg'")
        // The superseding row no longer matches its hash, and the row after the earlier link misses it.
        #expect(Set(try Self.problems(path).map(\.1)) == [.changed, .missingBefore])
    }

    @Test("an upgraded catalog keeps its old rows, flagged unchained with no hashes; the chain starts at the first new row")
    func upgraded() throws {
        let folder = try CatalogTests.folder()
        let old = try CatalogTests.catalog(at: 4, in: folder)
        let catalog = try Catalog(path: old)
        #expect(try catalog.chainHead == nil)
        try catalog.add(CatalogEntry(path: "/new.jpg", size: 1, sha256: CatalogTests.digest(1), command: .shoot))
        #expect(try catalog.verifyChain() == ChainReport(problems: [], chained: 1, unchained: 1, chains: 1))
        let hashes = try ExternalTool.python("""
            import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute("SELECT unchained, row_hash, previous_hash FROM photos WHERE path = '/old/a.jpg'").fetchone())
            """, [old]).out
        #expect(hashes.contains("(1, None, None)"), "\(hashes)")
        #expect(try Self.link(old, "/new.jpg").previous == Chain.genesis)
        // An older catalog read as it is: every row unchained.
        let older = try CatalogTests.catalog(at: 3, in: folder)
        #expect(try Catalog(reading: older).verifyChain() == ChainReport(problems: [], chained: 0, unchained: 1, chains: 0))
    }

    @Test("merged catalogs keep their own chains, each verified apart; a tampered one is reported by the merge and by the merged log")
    func merged() throws {
        let folder = try CatalogTests.folder()
        let (_, a) = try Self.logged(3, in: folder, name: "a.sqlite", host: "a")
        let (_, b) = try Self.logged(2, in: folder, name: "b.sqlite", host: "b")
        let old = try CatalogTests.catalog(at: 3, in: folder)
        let (mine, _) = try Self.logged(2, in: folder, name: "mine.sqlite", host: "mine")
        #expect(try mine.merge(from: a).chainProblems.isEmpty)
        #expect(try mine.merge(from: b).chainProblems.isEmpty)
        _ = try mine.merge(from: old)
        #expect(try mine.verifyChain() == ChainReport(problems: [], chained: 7, unchained: 1, chains: 3))
        // Logging here goes on in this catalog's own chain.
        try mine.add(CatalogEntry(path: "/mine/3.jpg", size: 3, sha256: CatalogTests.digest(3), command: .shoot))
        #expect(try mine.verifyChain().intact)

        let (_, c) = try Self.logged(3, in: folder, name: "c.sqlite", host: "c")
        try Self.tamper(c, "DELETE FROM photos WHERE path = '/c/2.jpg'")
        let count = try mine.merge(from: c)
        #expect(count.chainProblems.map(\.path) == ["/c/3.jpg"])
        let problems = try mine.verifyChain().problems
        #expect(problems.map(\.path) == ["/c/3.jpg"])
        #expect(problems.map(\.kind) == [.missingBefore])
    }
}
