import Testing
import TestSupport
@testable import Imaging

/// The fixtures are what the other tests take them for: checked on the bytes, not through the code
/// under test where that can be avoided.
@Suite struct FixtureTests {
    @Test("each sampling fixture's frame header has the sampling factors it is named for", arguments: FixtureSampling.allCases)
    func samplingFactors(sampling: FixtureSampling) throws {
        let factors = JPEGSegments.samplingFactors(try Fixtures.sampled(sampling).jpeg())
        #expect(factors.count == 3)
        #expect(factors.first?.h == sampling.lumaFactors.h && factors.first?.v == sampling.lumaFactors.v)
        #expect(factors.dropFirst().allSatisfy { $0.h == 1 && $0.v == 1 })
    }

    @Test("stored pixels turned back by hand give the card: orientation 6 is the card turned a quarter anticlockwise")
    func storedByHand() throws {
        let card = try Fixtures.card(width: 30, height: 20)
        let stored = try Fixtures.stored(card, orientation: .right)
        #expect(stored.width == 20 && stored.height == 30)
        // Row 0 of the stored image is the card's right-hand column, top to bottom.
        for x in 0..<20 { #expect(stored.rgb(x: x, y: 0) == card.rgb(x: 29, y: x)) }
        // Column 0 of the stored image is the card's top row, right to left.
        for y in 0..<30 { #expect(stored.rgb(x: 0, y: y) == card.rgb(x: 29 - y, y: 0)) }
        #expect(try Fixtures.stored(card, orientation: .up).rgb(x: 3, y: 4) == card.rgb(x: 3, y: 4))
    }

    @Test("EXIF goes in as written: APP1 right after SOI, the orientation of the name, the stored size")
    func exifAsWritten() throws {
        for photo in Fixtures.orientations {
            let bytes = try photo.jpeg()
            let first = try #require(JPEGSegments.segments(bytes).first)
            #expect(first.marker == 0xE1 && first.body.starts(with: Array("Exif\0\0".utf8)))
            #expect(!JPEGSegments.segments(bytes).contains { $0.marker == 0xE0 }, "\(photo): a JFIF segment is left")
            let metadata = PhotoMetadata(exif: JPEGSegments.exifPayload(bytes), iccProfile: nil)
            #expect(metadata.orientation == photo.orientation)
            let payload = try #require(metadata.exif)
            let block = try #require(ExifBlock(payload: payload))
            #expect(block.short(.pixelXDimension) == photo.storedWidth && block.short(.pixelYDimension) == photo.storedHeight)
        }
    }

    @Test("the fixture set covers what the metadata tests rely on")
    func coverage() throws {
        let all = try Fixtures.withExif.map { try PhotoMetadata(exif: JPEGSegments.exifPayload($0.jpeg()), iccProfile: nil) }
        #expect(all.allSatisfy { $0.exif != nil && $0.warnings.isEmpty })
        #expect(Set(all.map(\.orientation)) == Set(Orientation.allCases))
        let positions = all.compactMap(\.gps)
        #expect(positions.count == 5)
        #expect(positions.contains { $0.latitude > 0 && $0.longitude > 0 } && positions.contains { $0.latitude < 0 && $0.longitude < 0 })
        #expect(positions.contains { $0.latitude > 0 && $0.longitude < 0 } && positions.contains { $0.latitude < 0 && $0.longitude > 0 })
        #expect(positions.contains { $0.altitude == nil } && positions.contains { ($0.altitude ?? 0) < 0 })
        #expect(all.contains { $0.offsetTimeOriginal == nil } && all.contains { $0.offsetTimeOriginal == "+03:00" })
        #expect(all.contains { $0.artist != nil })
        #expect(all.filter { $0.thumbnailByteCount > 0 }.count >= 2)
    }

    @Test("the large EXIF block nearly fills its APP1 marker; the large ICC profile spans three APP2 markers")
    func largeBlocks() throws {
        let exif = try #require(JPEGSegments.exifPayload(try Fixtures.withLargeExif.jpeg()))
        #expect(exif.count > 60_000 && exif.count <= ExifRecord.maximumPayloadSize)
        #expect(PhotoMetadata(exif: exif, iccProfile: nil).thumbnailByteCount > 50_000)
        let icc = JPEGSegments.segments(try Fixtures.withLargeICC.jpeg()).filter { $0.marker == 0xE2 }
        #expect(icc.count == 3)
        #expect(icc.allSatisfy { $0.body.starts(with: Array("ICC_PROFILE\0".utf8)) })
        let profile = try #require(Fixtures.withLargeICC.iccProfile)
        // ICC.1 header: the size field, then 'acsp' at 36.
        #expect(Int(profile[0]) << 24 | Int(profile[1]) << 16 | Int(profile[2]) << 8 | Int(profile[3]) == profile.count)
        #expect(Array(profile[36..<40]) == Array("acsp".utf8))
    }

    @Test("the camera frame carries the standard tables and nothing before its quantisation tables")
    func cameraFrame() throws {
        let frame = try Fixtures.cameraFrame()
        let segments = JPEGSegments.segments(frame)
        #expect(segments.map(\.marker) == [0xDB, 0xC0, 0xC4, 0xDA])
        #expect(frame.suffix(2) == [0xFF, 0xD9])
        let factors = JPEGSegments.samplingFactors(frame)
        #expect(factors.first?.h == 2 && factors.first?.v == 1)
    }
}
