import Imaging
import Library
import Platform
import Session
import Templates
import Testing
import TestSupport
import Values
import Watermark
@testable import Capture

/// A camera that sends JPEG frames, shooting at full size: the frame is stamped in place.
@Suite struct StillInPlaceTests {
    /// What a camera sending 4:2:2 JPEG frames (as UVC webcams do) hands over for one still.
    static func still(_ frame: [UInt8]) throws -> CapturedStill {
        let size = Resolution(width: 640, height: 480)
        let metadata = CaptureMetadata(
            device: "/dev/video0", camera: "fake MJPEG camera", format: .mjpeg, frameSize: size, resolution: size,
            secondsSinceEpoch: 1_764_400_000, utcOffsetMinutes: 480, settledFrames: 5, settle: .frames(5),
            flash: .off, flashFired: false, zoom: 1, zoomByCamera: false, focus: nil, rotation: .none)
        var photo = try Photo(jpeg: frame, options: LoadOptions(maxSize: 0))
        photo.metadata = PhotoMetadata(exif: metadata.exifRecord.payload(), iccProfile: nil)
        return CapturedStill(photo: photo, metadata: metadata, cameraJPEG: frame)
    }

    /// jpegtran's copy of `rows` (whole MCU rows): the same bytes exactly when the blocks there are.
    static func blocks(_ jpeg: [UInt8], columns: Range<Int> = 0..<640, rows: Range<Int>) throws -> [UInt8] {
        let folder = try TestFiles.temporaryFolder("still-crop")
        try TestFiles.write(jpeg, to: folder + "/in.jpg")
        let result = try ExternalTool.run("jpegtran", ["-copy", "none", "-crop", "\(columns.count)x\(rows.count)+\(columns.lowerBound)+\(rows.lowerBound)",
                                                       "-outfile", folder + "/out.jpg", folder + "/in.jpg"])
        #expect(result.status == 0, "\(result.err)")
        return try TestFiles.bytes(folder + "/out.jpg")
    }

    static func write(_ still: CapturedStill, maxSize: Int) throws -> [UInt8] {
        let folder = try TestFiles.temporaryFolder("still-inplace")
        let writer = PhotoWriter(watermarker: try Watermarker(fontConfig: ShootControllerTests.fontConfig),
                                 settings: PhotoWriter.Settings(quality: 95, maxSize: maxSize))
        guard case .claimed(let claim) = try NameClaim.claim("shot.jpg", in: folder, existing: .number) else {
            throw FileError.cannotCreate(path: folder, reason: "no claim")
        }
        let fields = Fields(time: StampRecordTests.fields.time, user: "Li Wei", project: "Bridge 7")
        let written = try writer.write(still, style: StampRecordTests.style, fields: fields, to: claim)
        return try TestFiles.bytes(written.path)
    }

    @Test("--max-size 0: a camera's JPEG frame keeps every block outside the stamp's MCUs bit for bit; resized, it is encoded anew")
    func cameraFrame() throws {
        let frame = try Fixtures.sampled(.s422, width: 640, height: 480).jpeg()
        let still = try Self.still(frame)
        let stamped = try Self.write(still, maxSize: 0)
        // Classic's stamp sits in the lower part of the photo: the upper half is the camera's.
        #expect(try Self.blocks(stamped, rows: 0..<240) == Self.blocks(frame, rows: 0..<240))
        #expect(try Self.blocks(stamped, rows: 400..<480) != Self.blocks(frame, rows: 400..<480), "no stamp drawn")
        // Classic's box is in the bottom-left corner: beside it the bottom rows are the camera's too.
        #expect(try Self.blocks(stamped, columns: 576..<640, rows: 400..<480) == Self.blocks(frame, columns: 576..<640, rows: 400..<480))
        let photo = try Photo(jpeg: stamped, options: LoadOptions(maxSize: 0))
        #expect(photo.width == 640 && photo.height == 480)
        #expect(photo.metadata.exif != nil, "the capture's EXIF")
        let resized = try Photo(jpeg: try Self.write(still, maxSize: 320), options: LoadOptions(maxSize: 0))
        #expect(resized.width == 320 && resized.height == 240)
    }
}
