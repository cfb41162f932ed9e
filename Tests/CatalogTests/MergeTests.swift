@testable import Catalog
import Foundation
import Testing
import TestSupport

/// `log --merge`: rows of other catalogs, which may be older, damaged or made to hurt.
@Suite struct MergeTests {
    /// A catalog file written by Python's sqlite3 with stampcam's application id and `sql` run in it.
    static func hostile(_ sql: String, in folder: String, name: String = "hostile.sqlite") throws -> String {
        let path = folder + "/" + name
        let result = try ExternalTool.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("PRAGMA application_id = \(Schema.applicationID)")
            db.execute("PRAGMA user_version = 2")
            db.executescript(sys.argv[2])
            db.commit()
            """, [path, sql])
        #expect(result.status == 0, "\(result.err)")
        return path
    }

    @Test("merging copies every row once: merging again adds nothing; an older catalog is read as it is, and left unchanged")
    func merge() throws {
        let folder = try CatalogTests.folder()
        let shards = try (0..<3).map { shard -> String in
            let path = folder + "/shard-\(shard).sqlite"
            let catalog = try Catalog(path: path)
            for index in 0..<4 {
                try catalog.add(CatalogEntry(path: "/out/\(shard)-\(index).jpg", size: index, sha256: CatalogTests.digest(shard * 10 + index),
                                             command: .apply, project: "P", host: "node\(shard)"))
            }
            return path
        }
        let old = try CatalogTests.catalog(at: 1, in: folder)
        let oldBytes = try TestFiles.bytes(old)
        let all = try Catalog(path: folder + "/all.sqlite")
        for shard in shards { #expect(try all.merge(from: shard) == Catalog.MergeCount(read: 4, added: 4, unreadable: 0)) }
        #expect(try all.merge(from: old) == Catalog.MergeCount(read: 1, added: 1, unreadable: 0))
        #expect(try TestFiles.bytes(old) == oldBytes)
        #expect(try all.count() == 13)
        for shard in shards { #expect(try all.merge(from: shard).added == 0) }
        #expect(try all.count() == 13)
        #expect(Set(try all.entries().entries.compactMap(\.host)) == ["node0", "node1", "node2"])
    }

    @Test("a large catalog is merged in batches: every row, across the batch boundaries")
    func batches() throws {
        let folder = try CatalogTests.folder()
        let count = Catalog.batchSize * 2 + 203
        let source = try Catalog(path: folder + "/big.sqlite")
        try source.add((0..<count).map { CatalogEntry(path: "/big/\($0).jpg", size: $0, sha256: CatalogTests.digest($0), command: .apply) })
        let into = try Catalog(path: folder + "/mine.sqlite")
        #expect(try into.merge(from: folder + "/big.sqlite") == Catalog.MergeCount(read: count, added: count, unreadable: 0))
        #expect(try into.count() == count)
        #expect(try into.merge(from: folder + "/big.sqlite") == Catalog.MergeCount(read: count, added: 0, unreadable: 0))
    }

    @Test("rows that make no sense are left out and counted; values out of range are dropped; SQL-ish text stays text")
    func hostileRows() throws {
        let folder = try CatalogTests.folder()
        let good = CatalogTests.digest(1)
        let path = try Self.hostile("""
            CREATE TABLE photos (path, size, sha256, time, latitude, longitude, altitude, command, project, extra, logged_at);
            INSERT INTO photos VALUES ('/ok.jpg', 5, '\(good)', 'not a time', 1000, 2, 'high', 'apply', 'x''); DROP TABLE photos; --', '{"a": 1}', 'soon');
            INSERT INTO photos VALUES (42, 5, '\(CatalogTests.digest(2))', NULL, NULL, NULL, NULL, 'apply', NULL, NULL, NULL);
            INSERT INTO photos VALUES ('/neg.jpg', -1, '\(CatalogTests.digest(3))', NULL, NULL, NULL, NULL, 'apply', NULL, NULL, NULL);
            INSERT INTO photos VALUES ('/sha.jpg', 1, 'not-a-digest', NULL, NULL, NULL, NULL, 'apply', NULL, NULL, NULL);
            INSERT INTO photos VALUES ('/cmd.jpg', 1, '\(CatalogTests.digest(4))', NULL, NULL, NULL, NULL, 'rm -rf /', NULL, NULL, NULL);
            INSERT INTO photos VALUES (X'2F6E756C00782E6A7067', 1, '\(CatalogTests.digest(5))', NULL, NULL, NULL, NULL, 'apply', NULL, NULL, NULL);
            INSERT INTO photos VALUES ('/nan.jpg', 1, '\(CatalogTests.digest(6))', NULL, 'NaN', 1e999, NULL, 'shoot', NULL, NULL, NULL);
            """, in: folder)
        let into = try Catalog(path: folder + "/mine.sqlite")
        let count = try into.merge(from: path)
        #expect(count == Catalog.MergeCount(read: 2, added: 2, unreadable: 5))
        let rows = try into.entries().entries
        let ok = try #require(rows.first { $0.path == "/ok.jpg" })
        #expect(ok.time == nil && ok.latitude == nil && ok.longitude == nil && ok.altitude == nil && ok.extra.isEmpty)
        #expect(ok.loggedAt != nil)  // 'soon' is no time: the row counts as logged when merged
        #expect(ok.project == "x'); DROP TABLE photos; --")
        let nan = try #require(rows.first { $0.path == "/nan.jpg" })
        #expect(nan.latitude == nil && nan.longitude == nil)
        #expect(try into.integrityProblems().isEmpty)
    }

    @Test("a view called photos is not read (it could compute rows without end); a file without the columns is not a catalog")
    func hostileSchema() throws {
        let folder = try CatalogTests.folder()
        let endless = try Self.hostile("""
            CREATE VIEW photos AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
            SELECT '/x' || i AS path, 1 AS size, '\(CatalogTests.digest(1))' AS sha256, 'apply' AS command FROM n;
            """, in: folder, name: "endless.sqlite")
        #expect(throws: CatalogError.notACatalog(path: endless, reason: "it has no table of photos")) { try Catalog(reading: endless) }
        let wrong = try Self.hostile("CREATE TABLE photos (a, b);", in: folder, name: "wrong.sqlite")
        #expect(throws: CatalogError.notACatalog(path: wrong, reason: "its table of photos lacks the columns of one")) { try Catalog(reading: wrong) }
        let empty = folder + "/empty.sqlite"
        try TestFiles.write([], to: empty)
        #expect(throws: CatalogError.notACatalog(path: empty, reason: "it is empty")) { try Catalog(reading: empty) }
    }

    @Test("a value above 1 MB is refused by SQLite's own limit, not read into memory")
    func hugeValue() throws {
        let folder = try CatalogTests.folder()
        let path = try Self.hostile("""
            CREATE TABLE photos (path, size, sha256, command, note);
            INSERT INTO photos VALUES ('/big.jpg', 1, '\(CatalogTests.digest(1))', 'apply', zeroblob(5000000));
            """, in: folder)
        let into = try Catalog(path: folder + "/mine.sqlite")
        #expect(throws: CatalogError.self) { try into.merge(from: path) }
        #expect(try into.count() == 0)
    }
}
