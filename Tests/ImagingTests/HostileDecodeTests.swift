import Foundation
import Testing
import TestSupport
@testable import Imaging
@testable import Platform

/// Decoding input made to hurt: headers that lie, damaged scans, scan and memory bombs, broken
/// ICC markers, and the order of calls after a failure (which once longjmp'd into a dead frame).
@Suite struct HostileDecodeTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        try TestFiles.bytes(TestFiles.packageRoot + "/Tests/ImagingTests/Fixtures/\(name).jpg")
    }

    // MARK: corrupt scan data

    @Test("a header claiming 14000x14000 over 640x480 of data is corrupt data, not a grey photo")
    func lyingHeader() throws {
        let good = try HostileJPEG.encoded(width: 640, height: 480)
        let clean = try Photo(jpeg: good)
        #expect(clean.metadata.warnings.isEmpty)  // the untouched file is fine: the edit is what fails
        let lying = HostileJPEG.resized(good, width: 14000, height: 14000)
        #expect(throws: ImageError.corruptData("premature end of data segment")) { try Photo(jpeg: lying) }
        #expect(ImageError.corruptData("premature end of data segment").description
            == "corrupt JPEG data: premature end of data segment; only part of the picture could be decoded")
    }

    @Test("salvage decodes what it can and says what it decoded past")
    func salvage() throws {
        let lying = HostileJPEG.resized(try HostileJPEG.encoded(width: 640, height: 480), width: 14000, height: 14000)
        let photo = try Photo(jpeg: lying, options: LoadOptions(salvage: true))
        #expect(photo.sourceWidth == 14000 && photo.width == 1024)
        #expect(photo.metadata.warnings.count == 1)
        let warning = try #require(photo.metadata.warnings.first)
        #expect(warning.hasPrefix("corrupt JPEG data: premature end of data segment"), "\(warning)")
    }

    @Test("truncated data is an error by default and a warning with salvage")
    func truncated() throws {
        let cut = BadJPEG.truncated(try HostileJPEG.encoded(width: 320, height: 240), fraction: 0.6)
        #expect(throws: ImageError.truncated) { try Photo(jpeg: cut) }
        let photo = try Photo(jpeg: cut, options: LoadOptions(maxSize: 0, salvage: true))
        #expect(photo.width == 320)
        #expect(photo.metadata.warnings == ["truncated JPEG: the data ends before the image does; the rest of the picture is grey"])
    }

    @Test("damaged entropy data is refused by default, and salvaged with a warning")
    func damagedEntropyData() throws {
        var bytes = try HostileJPEG.encoded(width: 320, height: 240)
        let scan = try #require(HostileJPEG.scans(bytes).first).range
        // FF 00 is a stuffed data byte 0xFF: a run of one bits, longer than any Huffman code.
        // libjpeg-turbo's fast path decodes it as zeros and loses step; what is left unread before
        // the end marker is how the damage shows.
        for index in stride(from: scan.lowerBound + 40, to: scan.lowerBound + 200, by: 2) {
            bytes[index] = 0xFF
            bytes[index + 1] = 0x00
        }
        let message = try #require(Self.corruptData { () throws(ImageError) in try Photo(jpeg: bytes) })
        #expect(message.hasSuffix("extraneous bytes before marker 0xd9"), "\(message)")
        let photo = try Photo(jpeg: bytes, options: LoadOptions(salvage: true))
        #expect(photo.metadata.warnings.count == 1)
        #expect(photo.metadata.warnings.first?.hasPrefix("corrupt JPEG data: ") == true)
    }

    @Test("shrunk on load (resampled as the rows come), damage is refused and salvaged the same way")
    func damageWhileStreaming() throws {
        let small = LoadOptions(maxSize: 100)
        var salvaging = small
        salvaging.salvage = true
        let cut = BadJPEG.truncated(try HostileJPEG.encoded(width: 320, height: 240), fraction: 0.6)
        #expect(throws: ImageError.truncated) { try Photo(jpeg: cut, options: small) }
        let photo = try Photo(jpeg: cut, options: salvaging)
        #expect(photo.width == 100 && photo.decodeEighths < 8)
        #expect(photo.metadata.warnings == ["truncated JPEG: the data ends before the image does; the rest of the picture is grey"])
        let lying = HostileJPEG.resized(try HostileJPEG.encoded(width: 640, height: 480), width: 14000, height: 14000)
        #expect(throws: ImageError.corruptData("premature end of data segment")) { try Photo(jpeg: lying, options: small) }
        let salvaged = try Photo(jpeg: lying, options: salvaging)
        #expect(salvaged.width == 100 && salvaged.metadata.warnings.count == 1)
    }

    /// The detail of the `.corruptData` error `body` throws; nil for anything else.
    static func corruptData(_ body: () throws(ImageError) -> Photo) -> String? {
        do {
            _ = try body()
        } catch {
            if case .corruptData(let detail) = error { return detail }
        }
        return nil
    }

    @Test("a few bytes of padding before the end marker are harmless, as cameras write them")
    func paddingBeforeEnd() throws {
        let good = try HostileJPEG.encoded(width: 160, height: 120)
        func padded(_ count: Int) -> [UInt8] { Array(good.dropLast(2)) + [UInt8](repeating: 0, count: count) + [0xFF, 0xD9] }
        #expect(try Photo(jpeg: padded(3)).metadata.warnings.isEmpty)
        #expect(try Photo(jpeg: padded(16)).metadata.warnings.isEmpty)
        // libjpeg counts what its bit buffer had not taken in: about 90 of these 100.
        let message = try #require(Self.corruptData { () throws(ImageError) in try Photo(jpeg: padded(100)) })
        #expect(message.hasSuffix("extraneous bytes before marker 0xd9"), "\(message)")
        // Junk between header segments (before any pixel data) damages no pixel: the same picture.
        let tables = try #require(HostileJPEG.segments(good).first { $0.marker == 0xDB }).range
        let misplaced = Array(good[..<tables.lowerBound]) + [0x00, 0x00, 0x00] + good[tables.lowerBound...]
        let clean = try Photo(jpeg: good)
        let shifted = try Photo(jpeg: misplaced)
        #expect(shifted.metadata.warnings.isEmpty)
        #expect(PixelCompare.meanDifference(shifted.bitmap, clean.bitmap) == 0)
    }

    // MARK: scan bombs

    @Test("a file with more scans than the limit is refused, naming the limit")
    func scanLimit() throws {
        let progressive = try Self.fixture("progressive")
        #expect(HostileJPEG.scans(progressive).count == 10)
        _ = try Photo(jpeg: progressive, options: LoadOptions(scanLimit: 10))
        #expect(throws: ImageError.tooManyScans(limit: 9)) {
            try Photo(jpeg: progressive, options: LoadOptions(scanLimit: 9))
        }
        #expect(ImageError.tooManyScans(limit: 9).description.contains("more than 9 scans"))
    }

    @Test("a thousand repeated scans stop at the scan limit, with salvage too")
    func repeatedScans() throws {
        let progressive = try HostileJPEG.encoded(width: 256, height: 256, progressive: true)
        let last = HostileJPEG.scans(progressive).count - 1
        let bomb = HostileJPEG.repeatingScan(progressive, index: last, times: 1000)
        // A repeated refinement scan is inconsistent progression: corrupt data, found at once.
        #expect(throws: ImageError.self) { try Photo(jpeg: bomb) }
        #expect(throws: ImageError.tooManyScans(limit: LoadOptions.defaultScanLimit)) {
            try Photo(jpeg: bomb, options: LoadOptions(salvage: true))
        }
    }

    // MARK: memory bombs

    @Test("a 3 KB progressive file claiming 14000x14000 is refused before decoding, with what it would need")
    func coefficientBomb() throws {
        let bomb = HostileJPEG.resized(try Self.fixture("progressive"), width: 14000, height: 14000)
        #expect(bomb.count < 4000)
        // 4:2:0: luma 1750x1750 blocks, each chroma 875x875, 128 bytes a block; pixels at 1/8.
        let coefficients = (1750 * 1750 + 2 * 875 * 875) * 128
        #expect(coefficients == 588_000_000)
        // Resampled as it decodes (at 1/8, the smallest cover): the coefficients, the filter's
        // window of rows and the 1024x1024 result.
        let window = LanczosResampler.windowBytes(sourceWidth: 1750, sourceHeight: 1750, height: 1024)
        #expect(window == 12 * 1750 * 4)
        let needed = coefficients + window + 1024 * 1024 * 4
        #expect(throws: ImageError.tooMuchMemory(needed: needed, limit: 512_000_000, coefficients: coefficients)) {
            try Photo(jpeg: bomb)
        }
        // Under a limit that allows it, the same file gets as far as its (missing) data.
        #expect(throws: ImageError.corruptData("premature end of data segment")) {
            try Photo(jpeg: bomb, options: LoadOptions(memoryLimit: 700_000_000))
        }
        let message = ImageError.tooMuchMemory(needed: needed, limit: 512_000_000, coefficients: coefficients).description
        #expect(message == "decoding would need 593 MB (588 MB of it for the DCT coefficients of the whole image), above the memory limit of 512 MB")
    }

    @Test("a baseline file with the same header needs no coefficient buffer", arguments: [false, true])
    func coefficientsOnlyForMultiScan(progressive: Bool) throws {
        let bytes = try HostileJPEG.encoded(width: 64, height: 64, progressive: progressive)
        let decoder = try JPEGDecoder(data: HostileJPEG.resized(bytes, width: 14000, height: 14000))
        #expect((decoder.header.coefficientBytes > 0) == progressive)
    }

    @Test("the coefficient figure is what libjpeg allocates, for each subsampling",
          arguments: [ChromaSubsampling.s420, .s422, .s444])
    func coefficientFigure(subsampling: ChromaSubsampling) throws {
        let bytes = try HostileJPEG.encoded(width: 1203, height: 797, progressive: true, subsampling: subsampling)
        let figure = try JPEGDecoder(data: bytes).header.coefficientBytes
        let pixels = 1203 * 797
        #expect(figure >= pixels * (subsampling == .s444 ? 6 : subsampling == .s422 ? 4 : 3))
        // libjpeg's own limit (the backstop) is reached exactly when the figure is below what it needs.
        var enough = JPEGDecoder.Limits()
        enough.memoryLimit = figure + 1_000_000
        _ = try JPEGDecoder(data: bytes, limits: enough).decode(denominator: 1)
        var short = JPEGDecoder.Limits()
        short.memoryLimit = figure - 1
        #expect(throws: ImageError.outOfMemory(width: 1203, height: 797)) {
            try JPEGDecoder(data: bytes, limits: short).decode(denominator: 1)
        }
    }

    @Test("the memory check counts the decoded pixels, or the rows a shrink on load holds, and the result")
    func memoryForPixels() throws {
        let bytes = try HostileJPEG.encoded(width: 800, height: 600)
        let full = 800 * 600 * 4
        _ = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 0, memoryLimit: full))
        #expect(throws: ImageError.tooMuchMemory(needed: full, limit: full - 1, coefficients: 0)) {
            try Photo(jpeg: bytes, options: LoadOptions(maxSize: 0, memoryLimit: full - 1))
        }
        // For 150 px: 4/8 (400x300) leaves Lanczos room; it is resampled as it decodes, so only the
        // filter's window of rows is held besides the 150x113 result. Under a limit that holds
        // only 2/8's smaller window (200 px rows; 3/8's are longer, 1/8 would not cover the
        // target), 2/8 is taken.
        let result = 150 * 113 * 4
        let sharp = LanczosResampler.windowBytes(sourceWidth: 400, sourceHeight: 300, height: 113) + result
        let shrunk = LanczosResampler.windowBytes(sourceWidth: 200, sourceHeight: 150, height: 113) + result
        #expect(shrunk < sharp && sharp < full / 4)
        #expect(try Photo(jpeg: bytes, options: LoadOptions(maxSize: 150, memoryLimit: sharp)).decodeEighths == 4)
        let photo = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 150, memoryLimit: shrunk))
        #expect(photo.decodeEighths == 2 && photo.width == 150 && photo.height == 113)
        #expect(throws: ImageError.tooMuchMemory(needed: shrunk, limit: shrunk - 1, coefficients: 0)) {
            try Photo(jpeg: bytes, options: LoadOptions(maxSize: 150, memoryLimit: shrunk - 1))
        }
        // Progressive: the coefficients come on top, and a limit of exactly what is needed decodes
        // (libjpeg's own backstop leaves room for its small buffers).
        let progressive = try HostileJPEG.encoded(width: 800, height: 600, progressive: true)
        let coefficients = try JPEGDecoder(data: progressive).header.coefficientBytes
        let needed = full + coefficients
        _ = try Photo(jpeg: progressive, options: LoadOptions(maxSize: 0, memoryLimit: needed))
        #expect(throws: ImageError.tooMuchMemory(needed: needed, limit: needed - 1, coefficients: coefficients)) {
            try Photo(jpeg: progressive, options: LoadOptions(maxSize: 0, memoryLimit: needed - 1))
        }
    }

    // MARK: ICC, and calls after a failure

    @Test("a malformed ICC profile is dropped with a warning; a later decode error still comes back as an error")
    func malformedICC() throws {
        let profile = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let withICC = try HostileJPEG.encoded(width: 320, height: 240, icc: profile)
        #expect(try Photo(jpeg: withICC).metadata.iccProfile == profile)
        let malformed = HostileJPEG.withMalformedICC(withICC)
        let photo = try Photo(jpeg: malformed)
        #expect(photo.metadata.iccProfile == nil)
        #expect(photo.metadata.warnings == ["corrupt ICC profile: its APP2 markers do not fit together; the photo is written without it"])
        // ICC read (libjpeg warns), then a fatal error while decoding.
        let broken = HostileJPEG.withBogusHuffmanTable(malformed)
        #expect(throws: ImageError.corrupt("Bogus Huffman table definition")) { try Photo(jpeg: broken) }
        #expect(throws: ImageError.self) { try Photo(jpeg: HostileJPEG.resized(malformed, width: 4000, height: 3000)) }
    }

    @Test("after a failed decode, every further call is an error, not a jump into a returned frame")
    func callsAfterFailure() throws {
        let broken = HostileJPEG.withBogusHuffmanTable(try HostileJPEG.encoded(width: 320, height: 240))
        let decoder = try JPEGDecoder(data: broken)
        let half = try decoder.scaledSize(denominator: 2)
        #expect(half.width == 160 && half.height == 120)
        #expect(throws: ImageError.corrupt("Bogus Huffman table definition")) { try decoder.decode(denominator: 1) }
        // libjpeg is back at its start state: before, scaledSize's error longjmp'd into decode's dead frame.
        #expect(throws: ImageError.corrupt("the decoder stopped at an earlier error")) { try decoder.scaledSize(denominator: 2) }
        #expect(throws: ImageError.self) { try decoder.iccProfile() }
        #expect(throws: ImageError.self) { try decoder.decode(denominator: 1) }
    }

    @Test("a decoder decodes once; a second decode is refused, not undefined")
    func decodeTwice() throws {
        let decoder = try JPEGDecoder(data: try Self.fixture("baseline"))
        let first = try decoder.decode(denominator: 1)
        #expect(first.width == 160)
        #expect(throws: ImageError.corrupt("the image has been decoded already")) { try decoder.decode(denominator: 1) }
    }

    // MARK: reading files

    @Test("a file read from disk decodes to the same picture as its bytes")
    func fileContents() throws {
        let folder = try TestFiles.temporaryFolder("read")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["baseline", "progressive", "arithmetic", "grayscale", "cmyk", "422", "444"] {
            let bytes = try Self.fixture(name)
            try TestFiles.write(bytes, to: folder + "/\(name).jpg")
            let read = try Photo(jpeg: try FileContents(path: FilePath(folder + "/\(name).jpg"), check: LoadOptions().check), options: LoadOptions(maxSize: 0))
            let copied = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 0))
            #expect(PixelCompare.meanDifference(read.bitmap, copied.bitmap) == 0, "\(name)")
            #expect(read.metadata.warnings.isEmpty, "\(name): \(read.metadata.warnings)")
        }
        // The comparison can fail: another picture differs.
        let other = try Photo(jpeg: try Self.fixture("grayscale"), options: LoadOptions(maxSize: 0))
        let baseline = try Photo(jpeg: try Self.fixture("baseline"), options: LoadOptions(maxSize: 0))
        #expect(try #require(PixelCompare.meanDifference(other.bitmap, baseline.bitmap)) > 1)
    }

    @Test("a photo cut short after it was opened (a card pulled, a copy rewritten) is one failed photo, not SIGBUS",
          arguments: ["baseline", "progressive", "large"])
    func shrunkWhileRead(name: String) throws {
        let folder = try TestFiles.temporaryFolder("shrunk")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/photo.jpg"
        // "large": more than the head read before the check, so the cut falls in the second read.
        let bytes = name == "large"
            ? try Photo(bitmap: try #require(TestCard.draw(width: 2400, height: 1600))).jpeg(quality: 98)
            : try Self.fixture(name)
        if name == "large" { #expect(bytes.count > 2 * FileContents.headSize) }
        for length in [bytes.count / 2, 0] {
            try TestFiles.write(bytes, to: path)
            let (fd, status) = try FileSystem.openRegular(FilePath(path))
            defer { close(fd) }
            #expect(truncate(path, off_t(length)) == 0)
            let error = length == 0 ? ImageError.empty : .truncated
            #expect(throws: error) {
                try Photo(file: try FileContents(descriptor: fd, status: status, check: LoadOptions().check))
            }
        }
        // Read whole, the same file decodes.
        try TestFiles.write(bytes, to: path)
        #expect(try Photo(file: try FileContents(path: FilePath(path), check: LoadOptions().check)).width > 0)
    }

    @Test("a 3 GB file that is not a JPEG is refused from its first bytes, before the rest is read")
    func hugeNotJPEG() throws {
        let folder = try TestFiles.temporaryFolder("huge")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/huge.jpg"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("GIF89a".utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 3 << 30)  // sparse: no disk, no memory
        try handle.close()
        var seen: (head: Int, size: Int)?
        #expect(throws: ImageError.notJPEG) {
            try FileContents(path: FilePath(path)) { head, size in
                seen = (head.count, size)
                try LoadOptions().check(head: head, size: size)
            }
        }
        #expect(seen?.head == FileContents.headSize)
        #expect(seen?.size == 3 << 30)
        // One that starts like a JPEG is refused by its size: more bytes than a decode may hold.
        try TestFiles.write([0xFF, 0xD8, 0xFF, 0xE0], to: path)
        let grown = try #require(FileHandle(forWritingAtPath: path))
        try grown.truncate(atOffset: 3 << 30)
        try grown.close()
        #expect(throws: ImageError.tooMuchMemory(needed: 3 << 30, limit: LoadOptions.defaultMemoryLimit, coefficients: 0)) {
            try FileContents(path: FilePath(path), check: LoadOptions().check)
        }
        // An empty file is named as such.
        #expect(FileManager.default.createFile(atPath: folder + "/empty.jpg", contents: Data()))
        #expect(throws: ImageError.empty) { try FileContents(path: FilePath(folder + "/empty.jpg"), check: LoadOptions().check) }
        #expect(throws: ImageError.empty) { try Photo(jpeg: try FileContents(path: FilePath(folder + "/empty.jpg"))) }
    }

    @Test("every fixture flavour decodes cleanly under the strict default", arguments: [
        "baseline", "progressive", "arithmetic", "grayscale", "cmyk", "422", "444",
    ])
    func fixturesStayClean(name: String) throws {
        let photo = try Photo(jpeg: try Self.fixture(name))
        #expect(photo.metadata.warnings.isEmpty)
    }

    @Test("12-bit stays refused with its own message")
    func twelveBit() throws {
        #expect(throws: ImageError.unsupportedPrecision(bits: 12)) {
            try Photo(jpeg: BadJPEG.twelveBit(try Self.fixture("progressive")))
        }
    }

    @Test("corpus photos decode without a warning under the strict default", .needsCorpus)
    func corpusClean() throws {
        for path in Corpus.photos {
            let photo = try Photo(jpeg: try FileContents(path: FilePath(path)), options: LoadOptions(maxSize: 64))
            #expect(!photo.metadata.warnings.contains { $0.contains("JPEG data") || $0.contains("truncated") }, "\(path)")
        }
    }
}
