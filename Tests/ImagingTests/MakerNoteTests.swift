import Foundation
import Testing
import TestSupport
@testable import Imaging

/// Maker notes go out byte for byte, where they were, so every offset in them stays true; exiftool
/// finds the same maker-note tags and no warning the source did not have.
@Suite struct MakerNoteTests {
    static let edits = ExifEdits(artist: "Li Wei 李伟", imageDescription: "north wall", software: "stampcam test",
                                 dateTimeOriginal: "2026:11:29 14:03:12", offsetTimeOriginal: "+08:00",
                                 gps: GPSPosition(latitude: 48.8584, longitude: 2.2945, altitude: 35))

    /// The source photo re-encoded with `edits`, as `apply` writes it.
    static func written(_ source: [UInt8], edits: ExifEdits = edits, maxSize: Int = 1024) throws -> [UInt8] {
        let photo = try Photo(jpeg: source, options: LoadOptions(maxSize: maxSize))
        return try photo.encoded(record: OutputMetadata(exif: edits)).bytes
    }

    @Test("a Canon-style maker note (offsets from the TIFF header) keeps its bytes and its offset; its values resolve")
    func keptInPlace() throws {
        let output = try Self.written(try MakerNoteFixture.jpeg())
        let payload = try #require(JPEGSegments.exifPayload(output))
        let layout = try #require(ExifLayout(payload: payload))
        let note = try #require(layout.entry(0x927C, in: layout.exif))
        #expect(note.value == MakerNoteFixture.makerNote)
        // The same offset: the ImageType entry's absolute offset still points at its text.
        let source = try #require(ExifLayout(payload: MakerNoteFixture.payload))
        let start = MakerNoteFixture.makerNoteOffset
        #expect(Array(layout.tiff[start..<start + note.value.count]) == Array(source.tiff[start..<start + note.value.count]))
        let imageTypeOffset = Int(note.value[10]) | Int(note.value[11]) << 8 | Int(note.value[12]) << 16 | Int(note.value[13]) << 24
        let text = String(decoding: layout.tiff[imageTypeOffset...].prefix { $0 != 0 }, as: UTF8.self)
        #expect(text == MakerNoteFixture.imageType)
        // The edits are there, the thumbnail is not, and the rest of the source's tags stay.
        #expect(layout.entry(0x013B, in: layout.ifd0).map(layout.text) == "Li Wei 李伟")
        #expect(layout.entry(0x010E, in: layout.ifd0).map(layout.text) == "north wall")
        #expect(layout.entry(0x0131, in: layout.ifd0).map(layout.text) == "stampcam test")
        #expect(layout.entry(0x010F, in: layout.ifd0).map(layout.text) == "Canon")
        #expect(layout.entry(0x9003, in: layout.exif).map(layout.text) == "2026:11:29 14:03:12")
        #expect(layout.entry(0x9011, in: layout.exif).map(layout.text) == "+08:00")
        #expect(layout.ifd1.isEmpty)
        #expect(!output.contains(subsequence: [0xFF, 0xD8, 0xFF, 0xD9] + [UInt8](repeating: 0xAB, count: 12)))
        let gps = try #require(try Photo(jpeg: output, options: LoadOptions(maxSize: 64)).metadata.gps)
        #expect(abs(gps.latitude - 48.8584) < 1e-6 && abs(gps.longitude - 2.2945) < 1e-6 && gps.altitude == 35)
    }

    @Test("entries go out in tag order, values on even offsets, sizes and orientation for the upright photo")
    func wellFormed() throws {
        let output = try Self.written(try Fixtures.oriented(.right).jpeg(), maxSize: 100)
        let payload = try #require(JPEGSegments.exifPayload(output))
        let layout = try #require(ExifLayout(payload: payload))
        for directory in [layout.ifd0, layout.exif, layout.gps] {
            #expect(directory.map(\.tag) == directory.map(\.tag).sorted())
        }
        #expect(layout.entry(0x0112, in: layout.ifd0).map(layout.integer) == 1)
        #expect(layout.entry(0xA002, in: layout.exif).map(layout.integer) == 100)
        #expect(layout.entry(0xA003, in: layout.exif).map(layout.integer) == 67)
    }

    @Test("a photo without EXIF gets one only when there are tags to set")
    func noSourceExif() throws {
        let plain = try Fixtures.sampled(.s444).jpeg()
        #expect(JPEGSegments.exifPayload(try Self.written(plain, edits: ExifEdits())) == nil)
        let payload = try #require(JPEGSegments.exifPayload(try Self.written(plain)))
        let layout = try #require(ExifLayout(payload: payload))
        #expect(layout.entry(0x013B, in: layout.ifd0).map(layout.text) == "Li Wei 李伟")
    }

    @Test("hostile EXIF structure: loops, offsets past the end, absurd counts are left out, never read out of bounds")
    func hostile() throws {
        var payload = MakerNoteFixture.payload
        // The EXIF IFD pointer aimed back at IFD0 (a loop), the maker note's offset past the end.
        payload[6 + 8 + 2 + 4 * 12 + 8] = 8
        payload[6 + 8 + 2 + 4 * 12 + 9] = 0
        let looped = ExifTree(payload: payload)
        #expect(looped?.problems.isEmpty == false)
        var truncated = MakerNoteFixture.payload
        truncated.removeLast(0x400 - 0x120)  // the EXIF IFD's entries run past the end
        let cut = try #require(ExifTree(payload: truncated))
        #expect(!cut.problems.isEmpty)
        #expect(cut.payload().count < 65533)
        for length in stride(from: 0, to: MakerNoteFixture.payload.count, by: 7) {
            var tree = ExifTree(payload: Array(MakerNoteFixture.payload.prefix(length)))
            tree?.prepareForOutput(width: 10, height: 10)
            tree?.apply(Self.edits)
            _ = tree?.payload(fitting: 65533)
        }
    }

    @Test("hostile maker notes in every layout: cut short or with bytes flipped, they are read in bounds and written whole")
    func hostileLayouts() throws {
        for sample in MakerNoteLayouts.all {
            let payload = sample.payload
            for length in stride(from: 0x300, to: payload.count, by: 5) {
                var tree = ExifTree(payload: Array(payload.prefix(length)))
                tree?.prepareForOutput(width: 10, height: 10)
                _ = tree?.payload(fitting: 65533)
            }
            for at in stride(from: 6 + 0x300, to: min(payload.count, 6 + 0x400), by: 3) {
                var flipped = payload
                flipped[at] ^= 0xFF
                var tree = ExifTree(payload: flipped)
                tree?.prepareForOutput(width: 10, height: 10)
                let written = tree?.payload(fitting: 65533).payload
                #expect(written == nil || written == tree?.payload(fitting: 65533).payload)
            }
        }
    }

    @Test("a maker note that cannot stay where it was (over the TIFF header) is left out with a warning, the other EXIF kept")
    func makerNoteOverHeader() throws {
        var payload = MakerNoteFixture.payload
        // The maker note entry's offset (EXIF IFD at 0x100, its third entry) moved to 2.
        let field = 6 + 0x100 + 2 + 2 * 12 + 8
        payload.replaceSubrange(field..<field + 4, with: [2, 0, 0, 0])
        let photo = try Photo(jpeg: JPEGSegments.withExif(payload, in: try MakerNoteFixture.photo.jpeg()), options: LoadOptions(maxSize: 64))
        let written = try photo.encoded(record: OutputMetadata(exif: Self.edits))
        #expect(written.warnings.contains { $0.contains("maker note") }, "\(written.warnings)")
        let exif = try #require(JPEGSegments.exifPayload(written.bytes))
        let layout = try #require(ExifLayout(payload: exif))
        #expect(layout.entry(0x927C, in: layout.exif) == nil)
        #expect(layout.entry(0x010F, in: layout.ifd0).map(layout.text) == "Canon")
        #expect(layout.entry(0x9003, in: layout.exif).map(layout.text) == "2026:11:29 14:03:12")
    }

    @Test("a private IFD in IFD0 whose offsets cannot be kept is left out with a warning naming it")
    func foreignIFD() throws {
        let photo = try Photo(jpeg: try MakerNoteLayouts.kodak(privateTag: 0x014A).jpeg(), options: LoadOptions(maxSize: 64))
        let written = try photo.encoded(record: OutputMetadata(exif: Self.edits))
        #expect(written.warnings.contains { $0.lowercased().contains("0x014a") }, "\(written.warnings)")
        let payload = try #require(JPEGSegments.exifPayload(written.bytes))
        let layout = try #require(ExifLayout(payload: payload))
        #expect(layout.entry(0x014A, in: layout.ifd0) == nil)
    }

    /// Every corpus photo, or when there is none, every fixture with EXIF and the maker-note fixture.
    static var photos: [String] {
        if Corpus.isPresent { return Corpus.photos }
        guard let folder = try? Fixtures.folder(Fixtures.withExif, label: "maker-notes") else { return [] }
        try? TestFiles.write(try MakerNoteFixture.jpeg(), to: folder + "/" + MakerNoteFixture.photo.name)
        return TestFiles.files(in: folder).map { folder + "/" + $0 }
    }

    @Test("exiftool -validate finds no warning the source did not have, and the same maker-note tags", arguments: photos)
    func fidelity(path: String) throws {
        let output = try TestFiles.temporaryFolder("fidelity") + "/out.jpg"
        try TestFiles.write(try Self.written(try TestFiles.bytes(path)), to: output)
        let before = try ExifTool.validationWarnings(path), after = try ExifTool.validationWarnings(output)
        #expect(after.subtracting(before).isEmpty, "new warnings: \(after.subtracting(before).sorted())")
        // The maker notes' preview images are dropped as the thumbnail is; every other tag stays.
        #expect(try ExifTool.makerNoteLines(output).count == (try ExifTool.makerNoteLines(path)).count)
    }

    @Test("every maker-note layout keeps every tag with its value (the preview image aside), with no new exiftool warning",
          arguments: MakerNoteLayouts.all.map(\.name))
    func layouts(name: String) throws {
        let sample = try #require(MakerNoteLayouts.all.first { $0.name == name })
        let folder = try TestFiles.temporaryFolder("layout-" + name)
        let source = folder + "/in.jpg", output = folder + "/out.jpg"
        try TestFiles.write(try sample.jpeg(), to: source)
        try TestFiles.write(try Self.written(try TestFiles.bytes(source)), to: output)
        let before = try ExifTool.makerNoteLines(source), after = try ExifTool.makerNoteLines(output)
        #expect(!before.isEmpty, "the fixture is read: \(before)")
        #expect(after == before)
        #expect(try ExifTool.text(["-a", "-G1", "-s", "-warning", output]).isEmpty)
        // Under -validate too; a preview pointer past the end of the file (Minolta's) now reads 0.
        let sourceWarnings = try ExifTool.validationWarnings(source)
        let warnings = try ExifTool.validationWarnings(output).subtracting(sourceWarnings).filter {
            !($0.hasSuffix("PreviewImageLength is zero") && sourceWarnings.contains { $0.hasSuffix("PreviewImageStart is past end of file") })
        }
        #expect(warnings.isEmpty, "new warnings: \(warnings.sorted())")
        // The unstamped preview does not travel on (an empty JPEG is left in its place), and no
        // pointer is left dangling.
        let preview = try ExifTool.output(["-b", "-PreviewImage", output])
        #expect(preview.isEmpty || Array(preview) == [0xFF, 0xD8, 0xFF, 0xD9], "\(Array(preview.prefix(16)))")
    }

    @Test("Pentax, Casio, Sony Ericsson and Olympus previews are dropped: their bytes are gone from the file")
    func previewsDropped() throws {
        for sample in [MakerNoteLayouts.pentax(), MakerNoteLayouts.casio(), MakerNoteLayouts.sonyEricsson(), MakerNoteLayouts.olympus()] {
            let source = try sample.jpeg()
            #expect(source.contains(subsequence: MakerNoteLayouts.preview), "\(sample.name)")
            #expect(!(try Self.written(source)).contains(subsequence: MakerNoteLayouts.preview), "\(sample.name)")
        }
    }

    @Test("the Nikon preview image is dropped: its bytes are gone from the file, the preview IFD's other tags stay")
    func nikonPreviewDropped() throws {
        for sample in [MakerNoteLayouts.nikonType3(wholeNote: true), MakerNoteLayouts.nikonType3(littleEndian: false)] {
            let source = try sample.jpeg()
            let preview = [0xFF, 0xD8, 0xFF, 0xD9] + [UInt8](repeating: 0x5A, count: MakerNoteLayouts.nikonPreviewLength - 4)
            #expect(source.contains(subsequence: preview))
            let output = try Self.written(source)
            #expect(!output.contains(subsequence: preview))
            // Two runs write the same bytes: nothing read from outside the block or never written.
            #expect(output == (try Self.written(source)))
        }
    }

    @Test("a Canon maker note in the other byte order than the block reads without a false warning")
    func mixedByteOrder() throws {
        let photo = try Photo(jpeg: try MakerNoteLayouts.canon(littleEndian: false).jpeg(), options: LoadOptions(maxSize: 64))
        #expect(photo.metadata.warnings.isEmpty, "\(photo.metadata.warnings)")
    }

    @Test("the maker-note fixture has what the fidelity test relies on: exiftool reads its Canon tags")
    func fixtureIsReadable() throws {
        let folder = try TestFiles.temporaryFolder("maker-note")
        try TestFiles.write(try MakerNoteFixture.jpeg(), to: folder + "/in.jpg")
        let tags = try ExifTool.tags(folder + "/in.jpg")
        #expect(tags["Canon:CanonImageType"] == MakerNoteFixture.imageType)
        #expect(tags["Canon:OwnerName"] == MakerNoteFixture.owner)
        #expect(try ExifTool.makerNoteTagCount(folder + "/in.jpg") >= 4)
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { self[$0..<$0 + subsequence.count].elementsEqual(subsequence) }
    }
}
