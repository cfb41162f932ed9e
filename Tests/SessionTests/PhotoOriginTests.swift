import Imaging
import Library
import Location
import Platform
import Provenance
import Session
import Templates
import Testing
import TestSupport
import Values
import Watermark
@testable import Capture

/// What a photo's credentials say it is, and which zone its time is shown in.
@Suite struct PhotoOriginTests {
    /// A still as the camera at `device` hands it over, stamped and signed.
    static func signed(device: String) throws -> [UInt8] {
        let size = Resolution(width: 320, height: 240)
        let metadata = CaptureMetadata(
            device: device, camera: device == Cameras.testDevice ? "test pattern" : "webcam", format: .rgb24, frameSize: size,
            resolution: size, secondsSinceEpoch: 1_764_400_000, utcOffsetMinutes: 0, settledFrames: 1, settle: .frames(1),
            flash: .off, flashFired: false, zoom: 1, zoomByCamera: false, focus: nil, rotation: .none)
        let photo = try Photo(jpeg: try Fixtures.sampled(.s420, width: 320, height: 240).jpeg(), options: LoadOptions(maxSize: 0))
        let still = CapturedStill(photo: photo, metadata: metadata, cameraJPEG: nil)
        let folder = try TestFiles.temporaryFolder("origin")
        let keys = try InstallationKeys.openOrCreate(folder: folder + "/keys", host: "test", now: WallClock.now().secondsSinceEpoch)
        var settings = PhotoWriter.Settings(quality: 90, maxSize: 0)
        settings.signer = ManifestSigner(identity: keys.identity)
        let writer = PhotoWriter(watermarker: try Watermarker(fontConfig: ShootControllerTests.fontConfig), settings: settings)
        guard case .claimed(let claim) = try NameClaim.claim("shot.jpg", in: folder, existing: .number) else {
            throw FileError.cannotCreate(path: folder, reason: "no claim")
        }
        let written = try writer.write(still, style: StampRecordTests.style, fields: StampRecordTests.fields, to: claim)
        return try TestFiles.bytes(written.path)
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        return needle.count <= bytes.count && (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test("the built-in test pattern is never signed as a digital capture; a camera's still is")
    func testPattern() throws {
        let pattern = try Self.signed(device: Cameras.testDevice)
        #expect(Self.contains(pattern, Credentials.algorithmicMedia) && !Self.contains(pattern, Credentials.digitalCapture))
        let camera = try Self.signed(device: "/dev/video0")
        #expect(Self.contains(camera, Credentials.digitalCapture) && !Self.contains(camera, Credentials.algorithmicMedia))
    }

    @Test("a time is shown in its site's zone (the sites file's timezone), else --tz, else this machine's")
    func zones() throws {
        let sites = try SiteMap(geoJSON: Array("""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "Harbour", "timezone": "Europe/Helsinki", "radius": 500},
               "geometry": {"type": "Point", "coordinates": [24.95, 60.16]}},
              {"type": "Feature", "properties": {"name": "Depot", "radius": 500},
               "geometry": {"type": "Point", "coordinates": [25.5, 60.5]}}]}
            """.utf8), file: "sites.geojson")
        var policy = FieldPolicy(zone: FieldPolicy.Zone("Asia/Tokyo"))
        policy.whereabouts.sites = sites
        let noon = Timestamp(year: 2026, month: 7, day: 1, hour: 12, minute: 0, second: 0, utcOffsetMinutes: 0)
        #expect(policy.shown(noon, for: Fields(latitude: 60.16, longitude: 24.95)).utcOffsetMinutes == 180)  // summer time
        #expect(policy.shown(noon, for: Fields(latitude: 60.5, longitude: 25.5)).utcOffsetMinutes == 540)     // no zone: --tz
        #expect(policy.shown(noon, for: Fields()).utcOffsetMinutes == 540)
        policy.zone = nil
        let local = policy.shown(noon, for: Fields())
        #expect(local.secondsSinceEpoch == noon.secondsSinceEpoch && local.utcOffsetMinutes == WallClock.localOffsetMinutes(at: noon.secondsSinceEpoch!))
        // A zone the system does not know is refused when the sites are read, naming where.
        #expect(throws: SiteError.self) {
            try SiteMap(geoJSON: Array("""
                {"type": "Feature", "properties": {"name": "X", "timezone": "Mars/Olympus", "radius": 5},
                 "geometry": {"type": "Point", "coordinates": [1, 1]}}
                """.utf8), file: "bad.geojson")
        }
    }
}
