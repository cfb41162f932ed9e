@testable import Catalog
import Foundation
import Testing
import TestSupport

/// The log's chain cannot be switched off: rows flagged as logged before the chain must be the ones
/// recorded when it began, every column of a row is covered, and what photos recorded of the log
/// (their head) and an anchor kept elsewhere show deleted newest rows and a rewritten log.
@Suite struct ChainSwitchTests {
    typealias Chains = ChainTests

    static func kinds(_ path: String, recordedHead: (CatalogEntry) -> RecordedHead? = { _ in nil }, unlogged: [RecordedHead] = [],
                      anchor: Anchor? = nil) throws -> [ChainProblem.Kind] {
        try Catalog(reading: path).verifyChain(recordedHead: recordedHead, unlogged: unlogged, anchor: anchor).problems.map(\.kind)
    }

    @Test("one UPDATE flagging every row as logged before the chain is caught, row by row; so is flagging only the newest")
    func switchedOff() throws {
        let folder = try CatalogTests.folder()
        let (_, all) = try Chains.logged(4, in: folder, name: "all.sqlite")
        try Chains.tamper(all, "UPDATE photos SET unchained = 1, chain = NULL, link = NULL, previous_hash = NULL, row_hash = NULL")
        let report = try Catalog(reading: all).verifyChain()
        #expect(!report.intact)
        #expect(report.problems.map(\.kind) == Array(repeating: .flaggedUnchained, count: 4))
        #expect(report.problems.first?.description.contains("flagged as logged before the chain began") == true)

        let (_, newest) = try Chains.logged(4, in: folder, name: "newest.sqlite")
        try Chains.tamper(newest, "UPDATE photos SET unchained = 1, chain = NULL, link = NULL, previous_hash = NULL, row_hash = NULL WHERE link = 4")
        #expect(try Catalog(reading: newest).verifyChain().problems.map(\.id) == [try Chains.id(newest, "/here/4.jpg")])
        // Recording the forged row as unchained too is two tables rewritten: the photo's head shows it (below).
    }

    @Test("the rows of an upgraded catalog are recorded: one deleted, changed, added or flagged since is named")
    func recordedSet() throws {
        let folder = try CatalogTests.folder()
        func upgraded(_ name: String) throws -> String {
            let path = try CatalogTests.catalog(at: 4, in: folder)
            let copy = folder + "/" + name
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try FileManager.default.removeItem(atPath: path)
            let catalog = try Catalog(path: copy)
            try catalog.add(CatalogEntry(path: "/new.jpg", size: 1, sha256: CatalogTests.digest(1), command: .shoot))
            #expect(try catalog.verifyChain() == ChainReport(problems: [], chained: 1, unchained: 1, chains: 1))
            return copy
        }
        let deleted = try upgraded("deleted.sqlite")
        try Chains.tamper(deleted, "DELETE FROM photos WHERE path = '/old/a.jpg'")
        #expect(try Self.kinds(deleted) == [.unchainedMissing])

        let changed = try upgraded("changed.sqlite")
        try Chains.tamper(changed, "UPDATE photos SET project = 'Forged' WHERE path = '/old/a.jpg'")
        #expect(try Self.kinds(changed) == [.unchainedMissing, .flaggedUnchained])

        let added = try upgraded("added.sqlite")
        try Chains.tamper(added, "INSERT INTO photos (path, size, sha256, command, unchained) VALUES ('/old/b.jpg', 1, '\(CatalogTests.digest(9))', 'apply', 1)")
        #expect(try Self.kinds(added) == [.flaggedUnchained])

        // A catalog whose record is older than this reader says so, and is recorded by its next write.
        let older = try CatalogTests.catalog(at: 5, in: folder)
        try Chains.tamper(older, "UPDATE photos SET unchained = 1")
        #expect(try Catalog(reading: older).verifyChain().unchainedRecorded == false)
    }

    @Test("a change to any column of a row, its chain columns too, is named")
    func everyColumn() throws {
        let folder = try CatalogTests.folder()
        let values: [String: String] = [
            "path": "'/here/x.jpg'", "size": "99", "sha256": "'\(CatalogTests.digest(77))'", "original_path": "'/o.jpg'",
            "original_sha256": "'\(CatalogTests.digest(78))'", "time": "'2020-01-01T00:00:00+00:00'", "time_utc": "1",
            "zone": "'+05:00'", "time_source": "'EXIF'", "user": "'Mallory'", "project": "'X'", "location": "'L'", "note": "'N'",
            "latitude": "1.5", "longitude": "2.5", "altitude": "3.5", "style": "'s'", "style_version": "7", "camera": "'c'",
            "source": "'/s.jpg'", "command": "'apply'", "host": "'h'", "stamped_at": "'2020-01-01T00:00:00+00:00'",
            "extra": "'{\"a\":\"b\"}'", "logged_at": "5", "zone_assumed": "1", "site": "'S'", "site_address": "'A'", "heading": "90",
            "code": "'K7MN-4XRT-9P'", "chain": "'00'", "link": "2", "previous_hash": "'\(CatalogTests.digest(5))'",
            "supersedes": "'\(CatalogTests.digest(6))'", "row_hash": "'\(CatalogTests.digest(8))'",
        ]
        #expect(Set(values.keys) == Set(Schema.columns + Schema.chainColumns).subtracting(["unchained"]))
        for (column, value) in values.sorted(by: { $0.key < $1.key }) {
            let (_, path) = try Chains.logged(3, in: folder, name: column + ".sqlite")
            try Chains.tamper(path, "UPDATE photos SET \(column) = \(value) WHERE link = 3")
            #expect(!(try Self.kinds(path).isEmpty), "a new \(column) went unnoticed")
        }
    }

    @Test("a photo's recorded head shows a log rewritten by someone who knows the scheme, and a deleted newest row")
    func recordedHeads() throws {
        let folder = try CatalogTests.folder()
        let (catalog, path) = try Chains.logged(4, in: folder)
        let links = try catalog.links()
        let byPath = Dictionary(uniqueKeysWithValues: try (1...4).map { ("/here/\($0).jpg", try Chains.link(path, "/here/\($0).jpg")) })
        // Each photo recorded the head before it: the own hash of the row before its own.
        let heads: (CatalogEntry) -> RecordedHead? = { entry in
            let position = byPath[entry.path]!.position
            let head = links.values.first { $0.position == position - 1 }?.own
            return RecordedHead(path: entry.path, sha256: entry.sha256, head: head)
        }
        let intact = try catalog.verifyChain(recordedHead: heads)
        #expect(intact.intact && intact.headsChecked == 4)

        // Row 2 deleted, and rows 3 and 4 re-linked and re-hashed as the scheme says: the chain is whole again.
        let reader = try Catalog(reading: path)
        try Chains.tamper(path, "DELETE FROM photos WHERE link = 2")
        var previous = byPath["/here/1.jpg"]!.own
        for index in 3...4 {
            let row = try #require(try reader.entries().entries.first { $0.path == "/here/\(index).jpg" })
            let link = byPath[row.path]!
            let own = Chain.hash(row, code: nil, chain: link.chain, position: index - 1, previous: previous, supersedes: nil)
            try Chains.tamper(path, "UPDATE photos SET link = \(index - 1), previous_hash = '\(previous)', row_hash = '\(own)' WHERE path = '\(row.path)'")
            previous = own
        }
        #expect(try Catalog(reading: path).verifyChain().intact)
        let found = try Catalog(reading: path).verifyChain(recordedHead: heads).problems
        #expect(found.map(\.path) == ["/here/3.jpg", "/here/4.jpg"])
        #expect(found.map(\.kind) == [.headNotInLog(head: byPath["/here/2.jpg"]!.own), .headNotInLog(head: byPath["/here/3.jpg"]!.own)])

        // The newest row deleted: its photo, found on disk, was made after row 3 and no row logs it.
        let (_, newest) = try Chains.logged(4, in: folder, name: "newest.sqlite")
        let third = try Chains.link(newest, "/here/3.jpg")
        try Chains.tamper(newest, "DELETE FROM photos WHERE link = 4")
        #expect(try Catalog(reading: newest).verifyChain().intact)
        let photo = RecordedHead(path: "/here/4.jpg", sha256: CatalogTests.digest(4), head: third.own)
        #expect(try Self.kinds(newest, unlogged: [photo]) == [.unlogged(position: 3)])
        // A photo that is logged (moved or not), or was made for another log, is no problem.
        let logged = RecordedHead(path: "/moved/3.jpg", sha256: CatalogTests.digest(3), head: try Chains.link(newest, "/here/2.jpg").own)
        let foreign = RecordedHead(path: "/else/1.jpg", sha256: CatalogTests.digest(90), head: CatalogTests.digest(91))
        #expect(try Self.kinds(newest, unlogged: [logged, foreign]).isEmpty)

        // A row flagged as before the chain whose photo records a head was logged after it began.
        let (_, flagged) = try Chains.logged(2, in: folder, name: "flagged.sqlite")
        let first = try Chains.link(flagged, "/here/1.jpg")
        try Chains.tamper(flagged, "UPDATE photos SET unchained = 1, chain = NULL, link = NULL, previous_hash = NULL, row_hash = NULL WHERE link = 2")
        let recorded: (CatalogEntry) -> RecordedHead? = { RecordedHead(path: $0.path, sha256: $0.sha256, head: $0.path.hasSuffix("2.jpg") ? first.own : nil) }
        #expect(try Self.kinds(flagged, recordedHead: recorded) == [.flaggedUnchained, .headOnUnchained])
    }

    @Test("an anchor kept elsewhere proves nothing up to it changed; a change before it, its row deleted or the log rewritten shows")
    func anchors() throws {
        let folder = try CatalogTests.folder()
        func anchored(_ name: String) throws -> (String, Anchor) {
            let (catalog, path) = try Chains.logged(3, in: folder, name: name)
            let head = try #require(try catalog.chainHead)
            let anchor = Anchor(position: 3, hash: head)
            for index in 4...5 {
                try catalog.add(CatalogEntry(path: "/here/\(index).jpg", size: index, sha256: CatalogTests.digest(index), command: .shoot))
            }
            return (path, anchor)
        }
        let (intact, anchor) = try anchored("intact.sqlite")
        #expect(try Catalog(reading: intact).verifyChain(anchor: anchor).anchor == .intact(position: 3))
        #expect(Anchor(anchor.description) == anchor)
        #expect(Anchor(anchor.hash) == Anchor(position: nil, hash: anchor.hash))
        #expect(Anchor("3:xyz") == nil && Anchor("0:" + anchor.hash) == nil && Anchor("") == nil)
        #expect(try Catalog(reading: intact).verifyChain(anchor: Anchor(position: 2, hash: anchor.hash)).anchor == .missing)

        let (after, kept) = try anchored("after.sqlite")
        try Chains.tamper(after, "UPDATE photos SET project = 'Forged' WHERE link = 5")
        #expect(try Catalog(reading: after).verifyChain(anchor: kept).anchor == .intact(position: 3))

        let (before, kept2) = try anchored("before.sqlite")
        try Chains.tamper(before, "UPDATE photos SET project = 'Forged' WHERE link = 2")
        #expect(try Catalog(reading: before).verifyChain(anchor: kept2).anchor == .broken(position: 3))

        let (gone, kept3) = try anchored("gone.sqlite")
        try Chains.tamper(gone, "DELETE FROM photos WHERE link >= 3")
        #expect(try Catalog(reading: gone).verifyChain().intact)
        #expect(try Catalog(reading: gone).verifyChain(anchor: kept3).anchor == .missing)

        // The whole log rewritten, one row left out, every later row re-hashed: the anchor is not among its hashes.
        let (rewritten, kept4) = try anchored("rewritten.sqlite")
        let reader = try Catalog(reading: rewritten)
        let rows = try reader.entries().entries
        let chain = try Chains.link(rewritten, "/here/1.jpg").chain
        try Chains.tamper(rewritten, "DELETE FROM photos WHERE link = 2")
        var previous = Chain.genesis, position = 0
        for path in ["/here/1.jpg", "/here/3.jpg", "/here/4.jpg", "/here/5.jpg"] {
            position += 1
            let row = try #require(rows.first { $0.path == path })
            let own = Chain.hash(row, code: nil, chain: chain, position: position, previous: previous, supersedes: nil)
            try Chains.tamper(rewritten, "UPDATE photos SET link = \(position), previous_hash = '\(previous)', row_hash = '\(own)' WHERE path = '\(path)'")
            previous = own
        }
        #expect(try Catalog(reading: rewritten).verifyChain().intact)
        #expect(try Catalog(reading: rewritten).verifyChain(anchor: kept4).anchor == .missing)
    }
}
