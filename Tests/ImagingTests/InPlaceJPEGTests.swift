import Foundation
import Platform
import Testing
import TestSupport
@testable import Imaging

/// Stamping in place: every block outside the stamp's MCU rows is written bit for bit.
@Suite struct InPlaceJPEGTests {
    /// A picture with smooth gradients and fine detail, as photos have, deterministic.
    static func picture(width: Int, height: Int) -> [UInt8] {
        var ppm = Array("P6\n\(width) \(height)\n255\n".utf8)
        var state: UInt32 = 7
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let grain = Int(state >> 28)
                ppm += [UInt8((x * 255 / width + grain) & 0xFF), UInt8((y * 255 / height + grain) & 0xFF),
                        UInt8(((x ^ y) & 0x3F) * 3 + grain)]
            }
        }
        return ppm
    }

    /// cjpeg's output for the picture with `flags`.
    static func fixture(_ flags: [String], width: Int = 203, height: Int = 150) throws -> [UInt8] {
        let folder = try TestFiles.temporaryFolder("inplace")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestFiles.write(picture(width: width, height: height), to: folder + "/in.ppm")
        // Arithmetic coding has no Huffman tables to optimise.
        let optimize = flags.contains("-arithmetic") ? [] : ["-optimize"]
        let result = try ExternalTool.run("cjpeg", ["-quality", "85"] + optimize + flags + ["-outfile", folder + "/out.jpg", folder + "/in.ppm"])
        #expect(result.status == 0, "\(result.err)")
        return try TestFiles.bytes(folder + "/out.jpg")
    }

    /// jpegtran's copy of `rows` of a JPEG (whole MCU rows): the same bytes exactly when the
    /// blocks there are the same.
    static func blocks(_ jpeg: [UInt8], width: Int, rows: Range<Int>) throws -> [UInt8] {
        let folder = try TestFiles.temporaryFolder("inplace-crop")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestFiles.write(jpeg, to: folder + "/in.jpg")
        let result = try ExternalTool.run("jpegtran", ["-copy", "none", "-crop", "\(width)x\(rows.count)+0+\(rows.lowerBound)",
                                                       "-outfile", folder + "/out.jpg", folder + "/in.jpg"])
        #expect(result.status == 0, "\(result.err)")
        return try TestFiles.bytes(folder + "/out.jpg")
    }

    /// Stamps a white bar on rows 100..<110 in place.
    static func stamped(_ original: [UInt8]) throws -> (jpeg: [UInt8], strip: Range<Int>) {
        var inPlace = try InPlaceJPEG(jpeg: original, options: LoadOptions(maxSize: 0))
        let strip = inPlace.strip(covering: 100..<110)
        var window = try inPlace.decode(rows: strip)
        for y in (100 - strip.lowerBound)..<(110 - strip.lowerBound) {
            for x in 20..<120 { window.setRGB(x: x, y: y, (255, 255, 255)) }
        }
        try inPlace.replace(rows: strip, with: window)
        return (try inPlace.encoded().bytes, strip)
    }

    static let flavours: [(String, [String])] = [
        ("baseline 4:2:0", []), ("progressive", ["-progressive"]), ("restart markers", ["-restart", "2"]),
        ("4:2:2", ["-sample", "2x1"]), ("4:4:4", ["-sample", "1x1"]), ("greyscale", ["-grayscale"]),
        ("progressive 4:4:4", ["-progressive", "-sample", "1x1"]),
    ]

    @Test("outside the stamp's MCU rows every block and every pixel is the original's", arguments: flavours)
    func bitIdentity(name: String, flags: [String]) throws {
        let original = try Self.fixture(flags)
        let (result, strip) = try Self.stamped(original)
        #expect(strip.lowerBound <= 100 && strip.upperBound >= 110)
        #expect(strip.lowerBound % 8 == 0 && strip.count % 8 == 0 && strip.count <= 32, "\(name): \(strip)")
        // The blocks above and below the strip, as jpegtran copies them.
        #expect(try Self.blocks(result, width: 203, rows: 0..<strip.lowerBound)
                == Self.blocks(original, width: 203, rows: 0..<strip.lowerBound), "\(name): blocks above")
        #expect(try Self.blocks(result, width: 203, rows: strip.upperBound..<150)
                == Self.blocks(original, width: 203, rows: strip.upperBound..<150), "\(name): blocks below")
        // Decoded by the same decoder, the rows farther than one MCU row from the strip.
        let before = try Photo(jpeg: original, options: LoadOptions(maxSize: 0)).bitmap
        // The strip is decoded as the whole photo decodes, pixel for pixel.
        let window = try InPlaceJPEG(jpeg: original, options: LoadOptions(maxSize: 0)).decode(rows: strip)
        #expect(strip.allSatisfy { y in (0..<203).allSatisfy { window.rgb(x: $0, y: y - strip.lowerBound) == before.rgb(x: $0, y: y) } },
                "\(name): the decoded strip")
        let after = try Photo(jpeg: result, options: LoadOptions(maxSize: 0)).bitmap
        let mcu = strip.count >= 16 && !flags.contains("1x1") && !flags.contains("-grayscale") && !flags.contains("2x1") ? 16 : 8
        for y in Array(0..<max(0, strip.lowerBound - mcu)) + Array(min(150, strip.upperBound + mcu)..<150) {
            for x in stride(from: 0, to: 203, by: 1) where before.rgb(x: x, y: y) != after.rgb(x: x, y: y) {
                Issue.record("\(name): pixel (\(x), \(y)) changed")
                return
            }
        }
        // The stamp is there, and the rest of the strip is still the photo.
        let white = after.rgb(x: 60, y: 105)
        #expect(white.red > 230 && white.green > 230 && white.blue > 230, "\(name): \(white)")
        #expect(PixelCompare.meanDifference(before, after, x: 130..<203, y: strip) < 4, "\(name)")
        // The same kind of file, about the same size.
        let markers = HostileJPEG.segments(result).map(\.marker)
        #expect(markers.contains(flags.contains("-progressive") ? 0xC2 : 0xC0), "\(name)")
        #expect(markers.contains(0xDD) == flags.contains("-restart"), "\(name): restart interval")
        let ratio = Double(result.count) / Double(original.count)
        #expect(ratio > 0.95 && ratio < 1.05, "\(name): \(result.count) bytes from \(original.count)")
    }

    /// jpegtran's copy of the blocks of `columns` × `rows` (whole MCUs).
    static func blocks(_ jpeg: [UInt8], columns: Range<Int>, rows: Range<Int>) throws -> [UInt8] {
        let folder = try TestFiles.temporaryFolder("inplace-crop")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestFiles.write(jpeg, to: folder + "/in.jpg")
        let crop = "\(columns.count)x\(rows.count)+\(columns.lowerBound)+\(rows.lowerBound)"
        let result = try ExternalTool.run("jpegtran", ["-copy", "none", "-crop", crop, "-outfile", folder + "/out.jpg", folder + "/in.jpg"])
        #expect(result.status == 0, "\(result.err)")
        return try TestFiles.bytes(folder + "/out.jpg")
    }

    @Test("a stamp in a corner: only the MCUs under it are encoded again; beside it its rows keep every block, and the region decodes as the whole photo does",
          arguments: flavours)
    func region(name: String, flags: [String]) throws {
        let original = try Self.fixture(flags)
        var inPlace = try InPlaceJPEG(jpeg: original, options: LoadOptions(maxSize: 0))
        let rows = inPlace.strip(covering: 100..<110), columns = inPlace.span(covering: 150..<203)
        #expect(columns.lowerBound % 8 == 0 && columns.lowerBound <= 150 && columns.lowerBound >= 128 && columns.upperBound == 203,
                "\(name): \(columns)")
        var window = try inPlace.decode(rows: rows, columns: columns)
        let before = try Photo(jpeg: original, options: LoadOptions(maxSize: 0)).bitmap
        #expect(rows.allSatisfy { y in columns.allSatisfy { x in
            window.rgb(x: x - columns.lowerBound, y: y - rows.lowerBound) == before.rgb(x: x, y: y) } }, "\(name): the decoded region")
        for y in (100 - rows.lowerBound)..<(110 - rows.lowerBound) {
            for x in (150 - columns.lowerBound)..<window.width { window.setRGB(x: x, y: y, (255, 255, 255)) }
        }
        try inPlace.replace(rows: rows, columns: columns, with: window)
        let result = try inPlace.encoded().bytes
        #expect(try Self.blocks(result, columns: 0..<columns.lowerBound, rows: rows)
                == Self.blocks(original, columns: 0..<columns.lowerBound, rows: rows), "\(name): the blocks beside the stamp")
        #expect(try Self.blocks(result, columns: 0..<203, rows: 0..<rows.lowerBound)
                == Self.blocks(original, columns: 0..<203, rows: 0..<rows.lowerBound), "\(name): the blocks above")
        let white = try Photo(jpeg: result, options: LoadOptions(maxSize: 0)).bitmap.rgb(x: 180, y: 105)
        #expect(white.red > 230 && white.green > 230 && white.blue > 230, "\(name): \(white)")
    }

    @Test("a photo it cannot stamp in place fails alone, saying why",
          arguments: [("arithmetic-coded", ["-arithmetic"]), ("odd sampling factors", ["-sample", "3x1"])])
    func refused(name: String, flags: [String]) throws {
        let original = try Self.fixture(flags)
        if flags.contains("-arithmetic") {
            #expect(throws: ImageError.self) { _ = try InPlaceJPEG(jpeg: original, options: LoadOptions(maxSize: 0)) }
        } else {
            // Valid but unusual: stamped like any other, the blocks outside the strip kept.
            let (result, strip) = try Self.stamped(original)
            #expect(try Self.blocks(result, width: 203, rows: 0..<strip.lowerBound)
                    == Self.blocks(original, width: 203, rows: 0..<strip.lowerBound))
        }
    }

    @Test("hostile files fail with an error: truncated, a header claiming a huge photo, 12 bits")
    func hostile() throws {
        let good = try Self.fixture([])
        let progressive = try Self.fixture(["-progressive"])
        let options = LoadOptions(maxSize: 0)
        #expect(throws: ImageError.self) { _ = try InPlaceJPEG(jpeg: BadJPEG.truncated(good), options: options) }
        #expect(throws: ImageError.self) { _ = try InPlaceJPEG(jpeg: BadJPEG.truncated(progressive, fraction: 0.8), options: options) }
        #expect(throws: ImageError.self) { _ = try InPlaceJPEG(jpeg: BadJPEG.twelveBit(good), options: options) }
        do {
            _ = try InPlaceJPEG(jpeg: BadJPEG.resized(good, width: 60000, height: 60000), options: LoadOptions(maxSize: 0, pixelLimit: .max))
            Issue.record("a 3600 MP header was accepted")
        } catch {
            guard case .tooMuchMemory = error else { Issue.record("\(error)"); return }
        }
    }

    @Test("a header alone claiming 50 MP: its coefficient arrays weighed against the memory limit before any is made; 65535x65535 refused")
    func fiftyMegapixelHeader() throws {
        let good = try Self.fixture([])
        let sos = try #require(HostileJPEG.scans(good).first).range.lowerBound
        let sosEnd = sos + 2 + (Int(good[sos + 2]) << 8 | Int(good[sos + 3]))
        // Every header segment, the scan's header, and not one byte of picture data.
        let header = Array(BadJPEG.resized(good, width: 8192, height: 6144).prefix(sosEnd))
        // 4:2:0: 1024x768 luma blocks and 512x384 of each chroma, 128 bytes a block.
        let coefficients = (1024 * 768 + 2 * 512 * 384) * 128
        do {
            _ = try InPlaceJPEG(jpeg: header, options: LoadOptions(maxSize: 0, memoryLimit: coefficients))
            Issue.record("a 50 MP header was accepted with room for its coefficients alone")
        } catch {
            guard case .tooMuchMemory(let needed, let limit, let held) = error else { Issue.record("\(error)"); return }
            #expect(held == coefficients && needed > coefficients && limit == coefficients)
        }
        // Within the default limit the arrays fit: the missing picture data is what fails.
        #expect(throws: ImageError.self) { _ = try InPlaceJPEG(jpeg: header, options: LoadOptions(maxSize: 0)) }
        // 65535 is past libjpeg's largest side (65500): refused as it reads the header.
        let widest = Array(BadJPEG.resized(good, width: 65535, height: 65535).prefix(sosEnd))
        #expect(throws: ImageError.self) { _ = try InPlaceJPEG(jpeg: widest, options: LoadOptions(maxSize: 0, pixelLimit: .max)) }
        let huge = Array(BadJPEG.resized(good, width: 65500, height: 65500).prefix(sosEnd))
        #expect(throws: ImageError.tooManyPixels(width: 65500, height: 65500, limit: 200_000_000)) {
            _ = try InPlaceJPEG(jpeg: huge, options: LoadOptions(maxSize: 0))
        }
        do {
            _ = try InPlaceJPEG(jpeg: huge, options: LoadOptions(maxSize: 0, pixelLimit: .max))
            Issue.record("a 4290 MP header was accepted")
        } catch {
            guard case .tooMuchMemory = error else { Issue.record("\(error)"); return }
        }
    }

    @Test("a quantisation table holding 0 is refused rather than divided by; junk between header segments is stamped")
    func headerOddities() throws {
        let good = try Self.fixture([])
        let dqt = try #require(HostileJPEG.segments(good).first { $0.marker == 0xDB })
        var zero = good
        zero[dqt.range.lowerBound + 5 + 10] = 0  // FF DB, the length, the table's number, then its values
        #expect(throws: ImageError.self) { _ = try InPlaceJPEG(jpeg: zero, options: LoadOptions(maxSize: 0)) }
        var junk = good
        junk.insert(contentsOf: [UInt8](repeating: 0x20, count: 14), at: dqt.range.lowerBound)
        let (result, strip) = try Self.stamped(junk)
        #expect(try Self.blocks(result, width: 203, rows: 0..<strip.lowerBound) == Self.blocks(good, width: 203, rows: 0..<strip.lowerBound))
    }
}
