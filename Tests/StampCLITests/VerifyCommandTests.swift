import Catalog
import Foundation
import TestSupport
import Testing

/// `stampcam verify` as a command: its usage, files that are not there or carry nothing, and
/// `--code` finding photos in the catalog. What it says of signed photos is tested against the
/// reference reader in Tests/c2pa.
@Suite struct VerifyCommandTests {
    static let plainJPEG: [UInt8] = [0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 0x01, 0x02, 0xff, 0xd9]

    @Test func withoutPhotosItIsUsage() {
        let result = CLI.run(["verify"])
        #expect(result.code == 64)
    }

    @Test func unsignedPhotoHasNoCredentialsAndAMissingOneIsWorse() throws {
        let folder = try TestFiles.temporaryFolder("verify")
        let plain = folder + "/plain.jpg"
        _ = FileManager.default.createFile(atPath: plain, contents: Data(Self.plainJPEG))
        let one = CLI.run(["verify", plain])
        #expect(one.code == 12)
        #expect(one.out == [plain, "  It carries no credentials: nothing shows who made it, when, or that it is unchanged.", "", "  credentials  none"])
        #expect(one.err == ["stampcam: \(plain): no credentials: the file holds no C2PA manifest; it proves nothing about where or when it was taken"])
        let two = CLI.run(["verify", plain, folder + "/gone.jpg"])
        #expect(two.code == 66)
        #expect(two.out.first == plain && two.err.count == 2)
        #expect(two.err.last?.contains("gone.jpg: cannot read") == true)
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let fifo = try TestFiles.temporaryFolder("verify") + "/pipe.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = CLI.run(["verify", fifo])
        #expect(result.code == 66)
        #expect(result.err.first?.contains("not a regular file") == true)
    }

    @Test func codeFindsThePhotosInTheCatalog() throws {
        let folder = try TestFiles.temporaryFolder("verify-code")
        let catalogPath = folder + "/catalog.sqlite"
        let catalog = try Catalog(path: catalogPath)
        for name in ["a.jpg", "b.jpg", "c.jpg"] {
            _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(Self.plainJPEG))
            try catalog.add(CatalogEntry(path: folder + "/" + name, size: Self.plainJPEG.count, sha256: String(repeating: "0", count: 64),
                                         command: .apply))
        }
        // The code helper's writer fills the column; here it is set from outside.
        let set = try ExternalTool.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE photos SET code = 'K7HM-4XPA-3R' WHERE path LIKE '%b.jpg' OR path LIKE '%c.jpg'")
            db.commit()
            """, [catalogPath])
        #expect(set.status == 0, "\(set.err)")
        let found = CLI.run(["verify", "--code", "K7HM-4XPA-3R", "--catalog", catalogPath])
        // Files without credentials carry no signed code: they are not the photos logged with it.
        #expect(found.code == 13)
        #expect(found.out.filter { !$0.hasPrefix(" ") && !$0.isEmpty } == [folder + "/b.jpg", folder + "/c.jpg"])
        #expect(found.out.filter { $0.contains("This is not the photo logged with the code K7HM-4XPA-3R") }.count == 2)
        #expect(found.err.prefix(2) == ["stampcam: code K7HM-4XPA-3R: \(folder)/b.jpg", "stampcam: code K7HM-4XPA-3R: \(folder)/c.jpg"])
        let none = CLI.run(["verify", "--code", "x3pk-m7ta-9r", "--catalog", catalogPath])
        #expect(none.code == 66)
        #expect(none.err == ["stampcam: no photo in the catalog has the code X3PK-M7TA-9R"])
        let malformed = CLI.run(["verify", "--code", "NONE-SUCH", "--catalog", catalogPath])
        #expect(malformed.code == 64)
        #expect(malformed.err == ["stampcam: 'NONE-SUCH' is not a stampcam code: a code has no 'O' (it uses only 34679ACEFHJKMNPRTWXY)"])
        let short = CLI.run(["verify", "--code", "K7HM-4XPA", "--catalog", catalogPath])
        #expect(short.err == ["stampcam: 'K7HM-4XPA' is not a stampcam code: it has 8 of a code's characters, and a code has 10 (like K7MN-4XRT-9P)"])
        let both = CLI.run(["verify", "--code", "K7HM-4XPA-3R", folder + "/a.jpg", "--catalog", catalogPath])
        #expect(both.code == 64)
    }
}
