@testable import Catalog
import Foundation
import Testing
import TestSupport

/// The verification code column: written with the row, part of its link, found by `photos(code:)`.
@Suite struct CodeTests {
    static func entry(_ index: Int, code: String?) -> CatalogEntry {
        var entry = CatalogEntry(path: "/here/\(index).jpg", size: index, sha256: CatalogTests.digest(index), command: .shoot)
        entry.code = code
        return entry
    }

    @Test("a photo is found by its code as a person types it; a code no photo has, or text that is no code, finds none")
    func lookup() throws {
        let catalog = try Catalog(path: try CatalogTests.folder() + "/codes.sqlite")
        try catalog.add(Self.entry(1, code: "K7MN-4XRT-9P"))
        try catalog.add(Self.entry(2, code: "JNKC-CEWX-TH"))
        try catalog.add(Self.entry(3, code: nil))
        #expect(try catalog.photos(code: "JNKC-CEWX-TH").map(\.path) == ["/here/2.jpg"])
        #expect(try catalog.photos(code: " jnkc cewx th ").map(\.path) == ["/here/2.jpg"])
        #expect(try catalog.photos(code: "k7mn4xrt9p").first?.code == "K7MN-4XRT-9P")
        #expect(try catalog.photos(code: "JNKC-CEWX-TJ").isEmpty)
        #expect(try catalog.photos(code: "' OR 1=1 --").isEmpty)
        #expect(try catalog.photos(code: "").isEmpty)
    }

    @Test("the code is part of the row's hash: changing it behind stampcam's back is named")
    func chained() throws {
        let folder = try CatalogTests.folder()
        let path = folder + "/codes.sqlite"
        let catalog = try Catalog(path: path)
        try catalog.add(Self.entry(1, code: "K7MN-4XRT-9P"))
        try catalog.add(Self.entry(2, code: "JNKC-CEWX-TH"))
        #expect(try catalog.verifyChain().intact)
        try ChainTests.tamper(path, "UPDATE photos SET code = 'JNKC-CEWX-TJ' WHERE path = '/here/2.jpg'")
        #expect(try ChainTests.problems(path).map(\.1) == [.changed])
    }

    @Test("merged rows keep their codes, so their chain still verifies")
    func merged() throws {
        let folder = try CatalogTests.folder()
        let field = try Catalog(path: folder + "/field.sqlite")
        try field.add(Self.entry(1, code: "K7MN-4XRT-9P"))
        let office = try Catalog(path: folder + "/office.sqlite")
        _ = try office.merge(from: folder + "/field.sqlite")
        #expect(try office.photos(code: "K7MN-4XRT-9P").map(\.path) == ["/here/1.jpg"])
        #expect(try office.verifyChain().intact)
    }
}
