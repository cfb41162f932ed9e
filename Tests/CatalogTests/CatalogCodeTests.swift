import Catalog
import Testing
import TestSupport

/// The `code` column (a photo's verification code) read back with the row.
@Suite struct CatalogCodeTests {
    @Test("a row's code is read with it; an empty or missing one is none")
    func code() throws {
        let path = try TestFiles.temporaryFolder("catalog-code") + "/c.sqlite"
        let catalog = try Catalog(path: path)
        for number in 1...2 {
            try catalog.add(CatalogEntry(path: "/\(number).jpg", size: 1, sha256: CatalogTests.digest(number), command: .shoot))
        }
        #expect(try catalog.entries().entries.map(\.code) == [nil, nil])
        let update = try ExternalTool.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE photos SET code = 'K7Q2-M9XD' WHERE path = '/1.jpg'")
            db.execute("UPDATE photos SET code = '' WHERE path = '/2.jpg'")
            db.commit()
            """, [path])
        #expect(update.status == 0, "\(update.err)")
        let codes: [String: String?] = Dictionary(uniqueKeysWithValues: try catalog.entries().entries.map { ($0.path, $0.code) })
        #expect(codes == ["/1.jpg": "K7Q2-M9XD", "/2.jpg": nil])
    }
}
