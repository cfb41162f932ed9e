import Catalog
import Foundation
import Imaging
import Library
import Platform
import Session
import Templates
import Testing
import TestSupport
import Values
import Watermark

/// The writer hashes the unstamped picture before the stamp is drawn, derives the code the stamp
/// shows from that hash and the shown values, and records both (XMP, catalog) on either path.
@Suite struct VerificationCodeWriteTests {
    static let style = ShootControllerTests.styles.first { $0.id == "site-report" }!

    static func claim(_ folder: String, _ name: String = "site.jpg") throws -> NameClaim {
        guard case .claimed(let claim) = try NameClaim.claim(name, in: folder, existing: .number) else {
            throw FileError.cannotCreate(path: folder, reason: "no claim")
        }
        return claim
    }

    static func writer(log: PhotoLog? = nil) throws -> PhotoWriter {
        var settings = PhotoWriter.Settings(version: "0.2.0", clock: { StampRecordTests.stampTime })
        settings.log = log.map { PhotoLogging(log: $0, command: .apply) }
        return PhotoWriter(watermarker: try Watermarker(fontConfig: ShootControllerTests.fontConfig), settings: settings)
    }

    static func record(_ path: String) throws -> StampRecord {
        try #require(StampRecord.read(try Photo(jpeg: try TestFiles.bytes(path)).metadata))
    }

    @Test("decoded path: the hash is the fitted picture's before the stamp, the code derives from it and the shown values, and both are recorded and logged")
    func decoded() throws {
        let folder = try TestFiles.temporaryFolder("code-decoded")
        let recorder = PhotoLogTests.Recorder()
        let photo = try Photo(jpeg: try Fixtures.site.jpeg(), options: LoadOptions(maxSize: 320))
        let unstamped = photo.bitmap.withUnsafeBytes { FileDigest.sha256($0) }
        let written = try Self.writer(log: recorder).write(photo, style: Self.style, fields: StampRecordTests.fields, to: try Self.claim(folder))
        let record = try Self.record(written.path)
        #expect(record.pixelsSHA256 == unstamped)
        let code = try #require(record.code)
        #expect(VerificationCode.isWellFormed(code))
        #expect(code == VerificationCode.derive(pixelsSHA256: unstamped, fields: Self.style.shownValues(StampRecordTests.fields)))
        #expect(recorder.entries.first?.entry.code == code)
    }

    @Test("the code changes with a shown value, and not with one the style does not show")
    func codeFollowsShownValues() throws {
        let folder = try TestFiles.temporaryFolder("code-values")
        let photo = try Photo(jpeg: try Fixtures.site.jpeg(), options: LoadOptions(maxSize: 320))
        var fields = StampRecordTests.fields
        let first = try Self.writer().write(photo, style: Self.style, fields: fields, to: try Self.claim(folder, "a.jpg"))
        fields.note = "south wall"
        let second = try Self.writer().write(photo, style: Self.style, fields: fields, to: try Self.claim(folder, "b.jpg"))
        fields.note = StampRecordTests.fields.note
        fields.camera = "another camera"  // site-report does not show {camera}
        let third = try Self.writer().write(photo, style: Self.style, fields: fields, to: try Self.claim(folder, "c.jpg"))
        let codes = try [first, second, third].map { try #require(try Self.record($0.path).code) }
        #expect(codes[0] != codes[1])
        #expect(codes[0] == codes[2])
    }

    @Test("in place: the hash is over the picture's compressed data, not its metadata, and costs no decode of the whole photo")
    func inPlace() throws {
        let folder = try TestFiles.temporaryFolder("code-inplace")
        let jpeg = try Fixtures.site.jpeg()
        // The same picture with a comment segment more: other metadata, the same picture.
        let commented = Array(jpeg[0..<2]) + [0xFF, 0xFE, 0x00, 0x07] + Array("note!".utf8) + Array(jpeg[2...])
        var records: [StampRecord] = []
        for (index, bytes) in [jpeg, commented].enumerated() {
            let photo = try InPlaceJPEG(jpeg: bytes)
            let written = try Self.writer().write(inPlace: photo, style: Self.style, fields: StampRecordTests.fields,
                                                  to: try Self.claim(folder, "\(index).jpg"))
            records.append(try Self.record(written.path))
        }
        let hash = try #require(records[0].pixelsSHA256)
        #expect(records[1].pixelsSHA256 == hash)
        #expect(hash != FileDigest.sha256(jpeg) && hash != FileDigest.sha256(commented))
        // What is hashed: the file without its APPn and COM segments.
        #expect(hash == FileDigest.sha256(Self.withoutMetadata(jpeg)))
        #expect(records[0].code == VerificationCode.derive(pixelsSHA256: hash, fields: Self.style.shownValues(StampRecordTests.fields)))
    }

    /// A JPEG's bytes without the segments before its first scan that are metadata (an independent
    /// walk of the markers, for the test).
    static func withoutMetadata(_ jpeg: [UInt8]) -> [UInt8] {
        var out = Array(jpeg[0..<2]), at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF, jpeg[at + 1] != 0xDA {
            let end = at + 2 + Int(jpeg[at + 2]) << 8 + Int(jpeg[at + 3])
            if !((0xE0...0xEF).contains(jpeg[at + 1]) || jpeg[at + 1] == 0xFE) { out += jpeg[at..<end] }
            at = end
        }
        return out + jpeg[at...]
    }
}
