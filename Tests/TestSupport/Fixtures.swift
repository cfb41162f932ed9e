import Foundation
import Imaging
import Synchronization

/// Chroma subsampling of a fixture, 4:4:0 included (Imaging's encoder does not write it).
public enum FixtureSampling: String, Sendable, CaseIterable, CustomStringConvertible {
    case s420 = "4:2:0", s422 = "4:2:2", s440 = "4:4:0", s444 = "4:4:4"

    /// The luma component's (horizontal, vertical) sampling factors; chroma is 1×1.
    public var lumaFactors: (h: Int, v: Int) {
        switch self {
        case .s420: return (2, 2)
        case .s422: return (2, 1)
        case .s440: return (1, 2)
        case .s444: return (1, 1)
        }
    }

    public var description: String { rawValue }
}

public enum FixtureError: Error, CustomStringConvertible {
    case cannotDraw(width: Int, height: Int)
    case exifNotBuilt(String)

    public var description: String {
        switch self {
        case .cannotDraw(let width, let height): return "cannot draw a \(width)x\(height) test card"
        case .exifNotBuilt(let name): return "\(name): ExifRecord.payload() gave nothing"
        }
    }
}

/// A JPEG made in the test from stampcam's own test card: the card drawn upright at `width` ×
/// `height`, stored turned the way its EXIF orientation says (so turning it upright gives the card
/// back, pixel for pixel up to JPEG loss), encoded with `sampling`, with `exif` in an APP1 segment
/// right after SOI and `iccProfile` in APP2 segments.
public struct FixturePhoto: Sendable, Equatable, CustomStringConvertible {
    /// The file name it is written under.
    public var name: String
    /// The upright size.
    public var width: Int
    public var height: Int
    public var sampling: FixtureSampling
    public var quality: Int
    /// Written as is: orientation, thumbnail and all (unlike `Photo.jpeg`, which rewrites EXIF for output).
    public var exif: ExifRecord?
    public var iccProfile: [UInt8]?

    public init(name: String, width: Int, height: Int, sampling: FixtureSampling = .s420, quality: Int = 92,
                exif: ExifRecord? = nil, iccProfile: [UInt8]? = nil) {
        self.name = name
        self.width = width
        self.height = height
        self.sampling = sampling
        self.quality = quality
        self.exif = exif
        self.iccProfile = iccProfile
    }

    public var description: String { name }
    public var orientation: Orientation { exif?.orientation ?? .up }
    public var storedWidth: Int { orientation.swapsDimensions ? height : width }
    public var storedHeight: Int { orientation.swapsDimensions ? width : height }

    /// What the photo shows, upright: the reference a decoded fixture is compared with.
    public func card() throws -> Bitmap { try Fixtures.card(width: width, height: height) }

    /// The pixels as stored in the file (before the orientation turn).
    public func storedPixels() throws -> Bitmap { try Fixtures.stored(try card(), orientation: orientation) }

    /// The file's bytes (made once per process for each distinct photo).
    public func jpeg() throws -> [UInt8] {
        var key = self
        key.name = ""  // the same picture under another name is the same bytes
        if let made = Fixtures.made.withLock({ made in made.first { $0.key == key }?.bytes }) { return made }
        let bytes = try make()
        Fixtures.made.withLock { $0.append((key, bytes)) }
        return bytes
    }

    /// Writes the file into `folder` (created when missing) and returns its path.
    @discardableResult
    public func write(to folder: String) throws -> String {
        let path = folder + "/" + name
        try TestFiles.write(try jpeg(), to: path, creatingFolders: true)
        return path
    }

    private func make() throws -> [UInt8] {
        let pixels = try storedPixels()
        var bytes: [UInt8]
        switch sampling {
        case .s440:
            bytes = BaselineJPEG.encode(pixels, quality: quality, luma: sampling.lumaFactors,
                                        segments: iccProfile.map(JPEGSegments.iccSegments) ?? [])
        case .s420, .s422, .s444:
            let subsampling: ChromaSubsampling = sampling == .s420 ? .s420 : sampling == .s422 ? .s422 : .s444
            bytes = try Photo(bitmap: pixels, metadata: PhotoMetadata(exif: nil, iccProfile: iccProfile))
                .jpeg(quality: quality, subsampling: subsampling)
        }
        if let exif {
            // Spliced in, not passed to Photo.jpeg: that writes EXIF for an upright output (Orientation
            // 1, no thumbnail), and a fixture needs it as a camera wrote it.
            guard let payload = exif.payload() else { throw FixtureError.exifNotBuilt(name) }
            bytes = JPEGSegments.withExif(payload, in: bytes)
        }
        return bytes
    }
}

/// The fixture photos the tests share, and the pieces they are made of.
public enum Fixtures {
    static let made = Mutex<[(key: FixturePhoto, bytes: [UInt8])]>([])

    /// The EXIF time of most fixtures, as a camera writes it.
    public static let dateTime = "2021:06:14 09:41:27"

    // MARK: the catalogue

    /// The card stored turned for `orientation`, with EXIF saying so; upright it is `width` × `height`.
    public static func oriented(_ orientation: Orientation, width: Int = 180, height: Int = 120) -> FixturePhoto {
        var record = camera(storedWidth: orientation.swapsDimensions ? height : width,
                            storedHeight: orientation.swapsDimensions ? width : height)
        record.orientation = orientation
        record.offsetTime = "+02:00"
        return FixturePhoto(name: "orientation-\(orientation.rawValue).jpg", width: width, height: height, exif: record)
    }

    /// Orientations 1…8.
    public static var orientations: [FixturePhoto] { Orientation.allCases.map { oriented($0) } }

    /// The card with `sampling` and no metadata.
    public static func sampled(_ sampling: FixtureSampling, width: Int = 160, height: Int = 90) -> FixturePhoto {
        FixturePhoto(name: "sampling-\(sampling.rawValue.replacingOccurrences(of: ":", with: "")).jpg",
                     width: width, height: height, sampling: sampling)
    }

    /// A 640x480 photo like an older compact camera's: Make, Model, Artist, a local time without
    /// a zone, GPS north and east with altitude, a 160x120 thumbnail.
    public static let site: FixturePhoto = {
        var record = camera(storedWidth: 640, storedHeight: 480)
        record.artist = "Ana Lima"
        record.gps = GPSPosition(latitude: 43.467448, longitude: 11.885127, altitude: 152.5)
        record.thumbnail = cardThumbnail
        return FixturePhoto(name: "site.jpg", width: 640, height: 480, exif: record)
    }()

    /// GPS in each hemisphere, with and without altitude, and below sea level; zone offsets on
    /// both sides of UTC.
    public static let southWest = located("south-west.jpg", GPSPosition(latitude: -22.951916, longitude: -43.210487, altitude: 710), offset: "-03:00")
    public static let northWest = located("north-west.jpg", GPSPosition(latitude: 51.477928, longitude: -0.001545), offset: "+00:00")
    public static let southEast = located("south-east.jpg", GPSPosition(latitude: -33.856784, longitude: 151.215297, altitude: 4.25), offset: "+10:00")
    public static let belowSeaLevel = located("below-sea-level.jpg", GPSPosition(latitude: 31.559, longitude: 35.4732, altitude: -430.5), offset: "+03:00")

    /// A photo that says which way the camera faced (GPSImgDirection 56°, north-east).
    public static let facing: FixturePhoto = {
        var position = GPSPosition(latitude: 31.230416, longitude: 121.473701, altitude: 4)
        position.heading = 56
        return located("facing.jpg", position, offset: "+08:00")
    }()

    /// Every fixture with a GPS position.
    public static var withGPS: [FixturePhoto] { [site, southWest, northWest, southEast, belowSeaLevel] }

    /// A small ICC profile in one APP2 segment.
    public static let withICC: FixturePhoto = {
        FixturePhoto(name: "icc.jpg", width: 320, height: 240, exif: camera(storedWidth: 320, storedHeight: 240),
                     iccProfile: ICCProfileMaker.profile(description: "stampcam fixture RGB"))
    }()

    /// An ICC profile of about 150 KB, spread over three APP2 segments.
    public static let withLargeICC: FixturePhoto = {
        FixturePhoto(name: "icc-large.jpg", width: 320, height: 240, sampling: .s444,
                     exif: camera(storedWidth: 320, storedHeight: 240),
                     iccProfile: ICCProfileMaker.profile(description: "stampcam fixture RGB, sampled curves", curvePoints: 25_000))
    }()

    /// An EXIF block as large as one APP1 marker allows (a big thumbnail, as some cameras embed).
    public static let withLargeExif: FixturePhoto = {
        var record = camera(storedWidth: 320, storedHeight: 240)
        record.offsetTime = "+05:30"
        record.userComment = String(repeating: "large EXIF block. ", count: 100)
        record.thumbnail = largestThumbnail(fitting: record)
        return FixturePhoto(name: "exif-large.jpg", width: 320, height: 240, exif: record)
    }()

    /// Every fixture that carries EXIF.
    public static var withExif: [FixturePhoto] {
        orientations + withGPS + [withICC, withLargeICC, withLargeExif, sampled(.s440).withCameraExif]
    }

    // MARK: other pictures

    /// A frame the way an MJPEG webcam sends it: 4:2:2, the standard (Annex K) Huffman tables, no
    /// APP segments.
    public static func cameraFrame(width: Int = 320, height: Int = 240) throws -> [UInt8] {
        BaselineJPEG.encode(try card(width: width, height: height), quality: 85, luma: (2, 1))
    }

    /// The test card, upright.
    public static func card(width: Int, height: Int) throws -> Bitmap {
        guard let card = TestCard.draw(width: width, height: height) else { throw FixtureError.cannotDraw(width: width, height: height) }
        return card
    }

    /// A new temporary folder holding `photos`.
    public static func folder(_ photos: [FixturePhoto], label: String = "fixtures") throws -> String {
        let folder = try TestFiles.temporaryFolder(label)
        for photo in photos { try photo.write(to: folder) }
        return folder
    }

    /// The upright picture stored so that turning it by `orientation` (EXIF 2.32, Orientation: where
    /// the stored rows and columns go) gives it back. Written from the definition, not from
    /// Imaging's transform, so the tests check Imaging against the standard.
    public static func stored(_ upright: Bitmap, orientation: Orientation) throws -> Bitmap {
        if orientation == .up { return upright }
        let width = upright.width, height = upright.height
        // The upright (column, row) that stored pixel (x, y) shows, as column = c + cx·x + cy·y and
        // row = r + rx·x + ry·y. The comments say where the stored row 0 and column 0 are seen.
        let (c, cx, cy, r, rx, ry): (Int, Int, Int, Int, Int, Int)
        switch orientation {
        case .up: (c, cx, cy, r, rx, ry) = (0, 1, 0, 0, 0, 1)                             // top, left
        case .mirrored: (c, cx, cy, r, rx, ry) = (width - 1, -1, 0, 0, 0, 1)              // top, right
        case .down: (c, cx, cy, r, rx, ry) = (width - 1, -1, 0, height - 1, 0, -1)        // bottom, right
        case .downMirrored: (c, cx, cy, r, rx, ry) = (0, 1, 0, height - 1, 0, -1)         // bottom, left
        case .leftMirrored: (c, cx, cy, r, rx, ry) = (0, 0, 1, 0, 1, 0)                   // left, top
        case .right: (c, cx, cy, r, rx, ry) = (width - 1, 0, -1, 0, 1, 0)                 // right, top
        case .rightMirrored: (c, cx, cy, r, rx, ry) = (width - 1, 0, -1, height - 1, -1, 0)  // right, bottom
        case .left: (c, cx, cy, r, rx, ry) = (0, 0, 1, height - 1, -1, 0)                 // left, bottom
        }
        let (storedWidth, storedHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        guard var stored = Bitmap(width: storedWidth, height: storedHeight) else {
            throw FixtureError.cannotDraw(width: storedWidth, height: storedHeight)
        }
        // In whole pixels (both strides are width × 4): where stored (0, 0) comes from, and the
        // steps one stored column and one stored row take through the upright picture.
        let sourceRow = upright.stride / 4, targetRow = stored.stride / 4
        let origin = r * sourceRow + c, stepX = rx * sourceRow + cx, stepY = ry * sourceRow + cy
        upright.withUnsafeBytes { source in
            let pixels = source.assumingMemoryBound(to: UInt32.self)
            stored.withUnsafeMutableBytes { target in
                let out = target.assumingMemoryBound(to: UInt32.self)
                for y in 0..<storedHeight {
                    var from = origin + y * stepY
                    for x in 0..<storedWidth {
                        out[y * targetRow + x] = pixels[from]
                        from += stepX
                    }
                }
            }
        }
        return stored
    }

    // MARK: pieces

    /// The EXIF of a made-up camera: Make, Model, Software, the local time, the stored size.
    public static func camera(storedWidth: Int, storedHeight: Int) -> ExifRecord {
        var record = ExifRecord()
        record.make = "Fixture Optics"
        record.model = "FX-1 Test Camera"
        record.software = "stampcam tests"
        record.dateTime = dateTime
        record.pixelWidth = storedWidth
        record.pixelHeight = storedHeight
        record.flash = ExifRecord.flashNotPresent
        return record
    }

    static func located(_ name: String, _ position: GPSPosition, offset: String) -> FixturePhoto {
        var record = camera(storedWidth: 320, storedHeight: 240)
        record.gps = position
        record.offsetTime = offset
        return FixturePhoto(name: name, width: 320, height: 240, exif: record)
    }

    /// The card at 160x120, as a camera's EXIF thumbnail; empty when it cannot be made (the
    /// fixture then has none, which the fixture tests notice).
    static let cardThumbnail: [UInt8] = {
        guard let card = try? card(width: 160, height: 120) else { return [] }
        return (try? Photo(bitmap: card).jpeg(quality: 80)) ?? []
    }()

    /// Noise as a JPEG thumbnail, as large as still fits in `record`'s APP1 segment.
    static func largestThumbnail(fitting record: ExifRecord) -> [UInt8] {
        guard var noise = Bitmap(width: 160, height: 240) else { return [] }
        var state: UInt64 = 0x5EED
        for y in 0..<noise.height {
            for x in 0..<noise.width {
                state = state &* 6364136223846793005 &+ 1442695040888963407  // a fixed LCG: the same noise every run
                let bits = state >> 33
                noise.setRGB(x: x, y: y, (UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8), UInt8(truncatingIfNeeded: bits >> 16)))
            }
        }
        for height in stride(from: 240, through: 8, by: -2) {
            guard let rows = noise.cropped(x: 0, y: 0, width: 160, height: height),
                  let thumbnail = try? Photo(bitmap: rows).jpeg(quality: 100, subsampling: .s444) else { continue }
            var candidate = record
            candidate.thumbnail = thumbnail
            // payload() drops a thumbnail that does not fit; one that is kept makes the block larger than itself.
            if let payload = candidate.payload(), payload.count > thumbnail.count { return thumbnail }
        }
        return []
    }
}

extension FixturePhoto {
    /// The same picture with a camera's EXIF added (for fixtures that otherwise have none).
    public var withCameraExif: FixturePhoto {
        var copy = self
        copy.name = name.replacingOccurrences(of: ".jpg", with: "-exif.jpg")
        copy.exif = Fixtures.camera(storedWidth: storedWidth, storedHeight: storedHeight)
        return copy
    }
}
