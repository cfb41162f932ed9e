import Catalog
import Foundation
import Imaging
import Testing
import TestSupport

/// A camera without a fix that writes GPS tags anyway (zeros, or GPSStatus V) has no position:
/// nothing stamped, nothing logged, so nothing exported.
@Suite struct NoPositionTests {
    /// What `apply` with the geo style made of a photo with `entries` as its GPS IFD: the fields
    /// recorded in the output's XMP (what the stamp showed) and the catalog row.
    static func applied(_ entries: [GPSExif.Entry]) throws -> (xmp: String, row: CatalogEntry) {
        let base = try TestFiles.temporaryFolder("nofix")
        try TestFiles.write(try GPSExif.jpeg(GPSExif.payload(entries, bigEndian: false)), to: base + "/in/photo.jpg", creatingFolders: true)
        let result = CLI.run(["apply", base + "/in/photo.jpg", "-o", base + "/out", "-t", "geo", "--catalog", base + "/c.sqlite"])
        #expect(result.code == 0, "\(result.err)")
        let metadata = try Photo(jpeg: try TestFiles.bytes(base + "/out/photo.jpg"), options: LoadOptions(maxSize: 32)).metadata
        let xmp = String(decoding: try #require(metadata.xmp), as: UTF8.self)
        let row = try #require(try Catalog(reading: base + "/c.sqlite").entries().entries.first)
        return (xmp, row)
    }

    @Test("GPS tags of 0° 0° (a Samsung Galaxy S without a fix) or GPSStatus V: no position stamped or logged", arguments: [
        [GPSExif.Entry(0x01, .ascii("N")), GPSExif.Entry(0x02, .rational([(0, 1), (0, 1), (0, 1)])),
         GPSExif.Entry(0x03, .ascii("E")), GPSExif.Entry(0x04, .rational([(0, 1), (0, 1), (0, 1)]))],
        [GPSExif.Entry(0x01, .ascii("N")), GPSExif.Entry(0x02, .rational([(48, 1), (51, 1), (0, 1)])),
         GPSExif.Entry(0x03, .ascii("E")), GPSExif.Entry(0x04, .rational([(2, 1), (17, 1), (0, 1)])), GPSExif.Entry(0x09, .ascii("V"))],
    ])
    func noFix(_ entries: [GPSExif.Entry]) throws {
        let (xmp, row) = try Self.applied(entries)
        #expect(!xmp.contains("Latitude") && !xmp.contains("Longitude"), "\(xmp)")
        #expect(row.latitude == nil && row.longitude == nil, "\(row)")
    }

    @Test("the same photo with a real fix is stamped and logged with it (the checks above can fail)")
    func realFix() throws {
        let (xmp, row) = try Self.applied([GPSExif.Entry(0x01, .ascii("N")), GPSExif.Entry(0x02, .rational([(48, 1), (51, 1), (0, 1)])),
                                           GPSExif.Entry(0x03, .ascii("E")), GPSExif.Entry(0x04, .rational([(2, 1), (17, 1), (0, 1)]))])
        #expect(xmp.contains("Latitude"))
        #expect(abs((row.latitude ?? 0) - 48.85) < 1e-6)
    }
}
