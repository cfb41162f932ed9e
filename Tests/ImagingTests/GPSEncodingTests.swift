import Foundation
import Imaging

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// EXIF GPS as real devices write it, read to the same coordinates exiftool reads.
struct GPSEncodingTests {
    static func read(_ entries: [GPSExif.Entry], bigEndian: Bool = true) throws -> GPSPosition? {
        try Photo(jpeg: try GPSExif.jpeg(GPSExif.payload(entries, bigEndian: bigEndian)), options: LoadOptions(maxSize: 32)).metadata.gps
    }

    @Test("the Nokia 8.3 5G's encoding (tags out of order, SRATIONAL degrees, no altitude), in both byte orders",
          arguments: [true, false])
    func nokia(bigEndian: Bool) throws {
        let position = try #require(try Self.read(GPSExif.nokia, bigEndian: bigEndian))
        #expect(abs(position.latitude - 60.1467055555556) < 1e-9)
        #expect(abs(position.longitude - 24.9067722222222) < 1e-9)
        #expect(position.altitude == nil)
        #expect(position.heading == 56)
    }

    static let lat = GPSExif.Entry(0x02, .rational([(33, 1), (51, 1), (0, 1)]))
    static let lon = GPSExif.Entry(0x04, .rational([(151, 1), (12, 1), (30, 1)]))

    @Test("every way of writing the hemispheres and the parts of a degree", arguments: [
        ("refs missing, signed values", [GPSExif.Entry(0x02, .srational([(-33, 1), (51, 1), (0, 1)])), GPSExif.Entry(0x04, .srational([(151, 1), (12, 1), (30, 1)]))], -33.85, 151.208333),
        ("refs missing, unsigned values: north and east", [lat, lon], 33.85, 151.208333),
        ("refs in lower case", [GPSExif.Entry(0x01, .ascii("s")), lat, GPSExif.Entry(0x03, .ascii("w")), lon], -33.85, -151.208333),
        ("refs as BYTE", [GPSExif.Entry(0x01, .byte([0x53])), lat, GPSExif.Entry(0x03, .byte([0x57])), lon], -33.85, -151.208333),
        ("refs as UNDEFINED, longitude before latitude", [GPSExif.Entry(0x03, .undefined([0x57, 0])), lon, GPSExif.Entry(0x01, .undefined([0x53, 0])), lat], -33.85, -151.208333),
        ("a ref and a signed value that agree", [GPSExif.Entry(0x01, .ascii("S")), GPSExif.Entry(0x02, .srational([(-33, 1), (51, 1), (0, 1)])), lon], -33.85, 151.208333),
        ("decimal degrees in one rational", [GPSExif.Entry(0x01, .ascii("N")), GPSExif.Entry(0x02, .rational([(48_858_400, 1_000_000)])), GPSExif.Entry(0x03, .ascii("E")), GPSExif.Entry(0x04, .rational([(2_294_500, 1_000_000)]))], 48.8584, 2.2945),
        ("degrees and decimal minutes", [GPSExif.Entry(0x02, .rational([(48, 1), (5_150_400, 100_000)])), GPSExif.Entry(0x04, .rational([(2, 1), (1_767_000, 100_000)]))], 48.8584, 2.2945),
        ("on the equator, GPSStatus A", [GPSExif.Entry(0x09, .ascii("A")), GPSExif.Entry(0x02, .rational([(0, 1), (0, 1), (0, 1)])), lon], 0, 151.208333),
        ("seconds written 0/0", [GPSExif.Entry(0x02, .rational([(48, 1), (51, 1), (0, 0)])), GPSExif.Entry(0x04, .rational([(2, 1), (17, 1), (0, 0)]))], 48.85, 2.283333),
    ] as [(String, [GPSExif.Entry], Double, Double)])
    func hemispheres(_ name: String, _ entries: [GPSExif.Entry], _ latitude: Double, _ longitude: Double) throws {
        let position = try #require(try Self.read(entries), "\(name): no position")
        #expect(abs(position.latitude - latitude) < 1e-6, "\(name)")
        #expect(abs(position.longitude - longitude) < 1e-6, "\(name)")
    }

    @Test("positions that are not positions are none", arguments: [
        ("a zero denominator", [GPSExif.Entry(0x02, .rational([(48, 0), (51, 1), (0, 1)])), lon]),
        ("0/0 everywhere, as a Leica T without a fix writes", [GPSExif.Entry(0x01, .ascii("")), GPSExif.Entry(0x02, .rational([(0, 0), (0, 0), (0, 0)])),
                                                              GPSExif.Entry(0x03, .ascii("")), GPSExif.Entry(0x04, .rational([(0, 0), (0, 0), (0, 0)]))]),
        ("latitude 95", [GPSExif.Entry(0x02, .rational([(95, 1), (0, 1), (0, 1)])), lon]),
        ("longitude 181 W", [lat, GPSExif.Entry(0x03, .ascii("W")), GPSExif.Entry(0x04, .rational([(181, 1), (0, 1), (0, 1)]))]),
        ("four parts", [GPSExif.Entry(0x02, .rational([(48, 1), (51, 1), (0, 1), (1, 1)])), lon]),
        ("no longitude", [lat]),
        ("text for a latitude", [GPSExif.Entry(0x02, .ascii("48.8584")), lon]),
        ("0° 0° with references, as a Samsung Galaxy S without a fix writes", [GPSExif.Entry(0x01, .ascii("N")), GPSExif.Entry(0x02, .rational([(0, 1), (0, 1), (0, 1)])),
                                                                               GPSExif.Entry(0x03, .ascii("E")), GPSExif.Entry(0x04, .rational([(0, 1), (0, 1), (0, 1)]))]),
        ("0° 0° with GPSMeasureMode 2", [GPSExif.Entry(0x02, .rational([(0, 1)])), GPSExif.Entry(0x04, .rational([(0, 1)])), GPSExif.Entry(0x0A, .ascii("2"))]),
        ("GPSStatus V (void) beside a position", [GPSExif.Entry(0x09, .ascii("V")), lat, lon]),
    ] as [(String, [GPSExif.Entry])])
    func refused(_ name: String, _ entries: [GPSExif.Entry]) throws {
        #expect(try Self.read(entries) == nil, "\(name)")
    }

    @Test("altitude: signed without a reference, below sea level by reference, direction kept in 0…360")
    func altitude() throws {
        let signed = try #require(try Self.read([Self.lat, Self.lon, GPSExif.Entry(0x06, .srational([(-125, 10)]))]))
        #expect(signed.altitude == -12.5)
        let below = try #require(try Self.read([Self.lat, Self.lon, GPSExif.Entry(0x05, .byte([1])), GPSExif.Entry(0x06, .rational([(430, 1)]))]))
        #expect(below.altitude == -430)
        let above = try #require(try Self.read([Self.lat, Self.lon, GPSExif.Entry(0x05, .byte([0])), GPSExif.Entry(0x06, .rational([(35, 1)])),
                                                GPSExif.Entry(0x11, .rational([(36000, 100)]))]))
        #expect(above.altitude == 35 && above.heading == 0)
        let wild = try #require(try Self.read([Self.lat, Self.lon, GPSExif.Entry(0x11, .rational([(400, 1)])),
                                               GPSExif.Entry(0x06, .rational([(0, 0)]))]))
        #expect(wild.heading == nil && wild.altitude == nil)
    }

    /// exiftool's GPS reading of every corpus photo that has one, by path. Run with system(3) into a
    /// file rather than with Foundation's Process, which leaks under LeakSanitizer (make test-asan).
    static func exiftool() throws -> [String: [String: Double]] {
        let output = try TestFiles.temporaryFolder("exiftool") + "/gps.json"
        let command = "/usr/bin/exiftool -r -j -n -q -q -GPSLatitude -GPSLongitude -GPSAltitude -GPSImgDirection "
            + "-ext jpg -ext jpeg '\(Corpus.root)' > '\(output)'"
        #expect(system(command) == 0, "exiftool failed")
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        let items = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        var result: [String: [String: Double]] = [:]
        for item in items {
            guard let path = item["SourceFile"] as? String else { continue }
            result[URL(fileURLWithPath: path).standardized.path] = item.compactMapValues { $0 as? Double }
        }
        return result
    }

    @Test("every corpus photo reads the GPS exiftool reads (±1e-6°), and none reads GPS exiftool does not",
          .needsCorpus, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool"),
                                 "exiftool (Debian libimage-exiftool-perl, installed by make deps) is not installed"))
    func corpus() throws {
        let reference = try Self.exiftool()
        var compared = 0
        for path in Corpus.photos {
            let key = URL(fileURLWithPath: path).standardized.path
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            guard let photo = try? Photo(jpeg: bytes, options: LoadOptions(maxSize: 64)) else { continue }
            let read = photo.metadata.gps
            guard let expected = reference[key], let latitude = expected["GPSLatitude"], let longitude = expected["GPSLongitude"] else {
                #expect(read == nil, "\(key): GPS that exiftool does not read")
                continue
            }
            compared += 1
            let position = try #require(read, "\(key): exiftool reads \(latitude), \(longitude); stampcam reads nothing")
            #expect(abs(position.latitude - latitude) <= 1e-6 && abs(position.longitude - longitude) <= 1e-6,
                    "\(key): \(position.latitude), \(position.longitude) vs exiftool's \(latitude), \(longitude)")
            if let altitude = expected["GPSAltitude"] { #expect(abs((position.altitude ?? .nan) - altitude) <= 1e-6, "\(key) altitude") }
            if let heading = expected["GPSImgDirection"] { #expect(abs((position.heading ?? .nan) - heading) <= 1e-6, "\(key) heading") }
        }
        #expect(compared == 9, "the corpus has 9 photos with GPS")
    }

    @Test("the Nokia 8.3 5G photo itself", .needsCorpus)
    func nokiaPhoto() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpus.path("ianare-exif-samples/jpg/mobile/HMD_Nokia_8.3_5G.jpg"))))
        let position = try #require(try Photo(jpeg: bytes, options: LoadOptions(maxSize: 64)).metadata.gps)
        #expect(abs(position.latitude - 60.1467055555556) < 1e-9 && abs(position.longitude - 24.9067722222222) < 1e-9)
        #expect(position.heading == 56)
    }
}
