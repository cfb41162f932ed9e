@testable import Location
import Testing
import TestSupport

/// The fuzz target `places`' seeds (see TestSupport's FuzzSeeds): index files of a few places
/// and of none, for the table the target names; each read back whole.
@Suite struct FuzzSeedTests {
    @Test func placeIndexSeedsReadBack() throws {
        let source = PlaceIndexFile.Source(path: "/fuzz/cities1000.csv", size: 1000, modified: 1_700_000_000)  // as Tests/Fuzz/FuzzPlaces
        let places = [Place(name: "Helsinki", region: "Uusimaa", country: "FI", latitude: 60.16952, longitude: 24.93545),
                      Place(name: "Labasa", region: "Northern", country: "FJ", latitude: -16.4167, longitude: 179.9833),
                      Place(name: "Waiyevo", region: "", country: "FJ", latitude: -16.7833, longitude: -179.9833),
                      Place(name: "McMurdo", region: "", country: "AQ", latitude: -77.85, longitude: 166.6667),
                      Place(name: "Paris", region: "Île-de-France", country: "FR", latitude: 48.85341, longitude: 2.3488)]
        for (name, table) in [("five", places), ("one", [places[0]]), ("none", [])] {
            let bytes = PlaceIndexFile.encode(Gazetteer(places: table), source: source)
            let read = try #require(PlaceIndexFile.decode(bytes, source: source), "\(name)")
            #expect(read.count == table.count)
            try FuzzSeeds.write(bytes, target: "places", name: name)
        }
    }
}
