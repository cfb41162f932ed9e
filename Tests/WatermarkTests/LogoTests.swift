import Testing
import TestSupport
import Imaging
import Templates
import Watermark
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

@Suite struct LogoTests {
    static func template(logo path: String, size: Double = 0.1, position: Template.Logo.Position = .left) throws -> Template {
        var template = try Fixture.template("classic")
        template.blocks[0].logo = Template.Logo(file: path, size: size, position: position)
        return template
    }

    static func square(_ side: Int, _ color: (UInt8, UInt8, UInt8), in folder: String, name: String) throws -> String {
        var bitmap = try #require(Bitmap(width: side, height: side))
        for y in 0..<side { for x in 0..<side { bitmap.setRGB(x: x, y: y, color) } }
        #expect(bitmap.writePNG(to: folder + "/" + name))
        return folder + "/" + name
    }

    /// The reason stamping with this logo fails, or nil.
    static func reason(_ path: String, cache: LogoCache = LogoCache()) throws -> String? {
        do {
            _ = try Watermarker(fontConfig: Fixture.fontConfig, logos: cache).stampCard(template: try template(logo: path),
                                                                                        fields: Fixture.fields)
            return nil
        } catch let error as WatermarkError {
            guard case .logo(let failing, let reason) = error, failing == path else { return "\(error)" }
            return reason
        }
    }

    @Test("a FIFO as a logo is refused at once instead of blocking", .timeLimit(.minutes(1)))
    func fifo() throws {
        let path = try TestFiles.temporaryFolder("logo-fifo") + "/logo.png"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(try Self.reason(path) == "it is a FIFO (named pipe), not a regular file")
    }

    @Test("files that are not PNGs say so", arguments: [
        ("/etc/passwd", "not a PNG file"),
        ("/dev/zero", "it is a character device, not a regular file"),
        ("/", "it is a folder, not a regular file"),
        ("/nonexistent/logo.png", "file not found"),
    ])
    func notPNG(path: String, reason: String) throws {
        #expect(try Self.reason(path) == reason)
    }

    @Test("an empty, a truncated and a damaged PNG are refused with the reason")
    func damaged() throws {
        let folder = try TestFiles.temporaryFolder("logo-damaged")
        let good = try TestFiles.bytes(try Self.square(64, (255, 0, 255), in: folder, name: "good.png"))
        try TestFiles.write([], to: folder + "/empty.png")
        try TestFiles.write(Array(good.prefix(good.count / 2)), to: folder + "/half.png")
        try TestFiles.write(Array(good.prefix(33)) + [UInt8](repeating: 7, count: 100), to: folder + "/noise.png")
        #expect(try Self.reason(folder + "/empty.png") == "the file is empty, not a PNG")
        #expect(try Self.reason(folder + "/half.png") == "truncated PNG: the file ends after \(good.count / 2) bytes, before the image does")
        #expect(try Self.reason(folder + "/noise.png")?.hasPrefix("not a valid PNG file: ") == true)
    }

    @Test("a 20000×20000 logo is refused from its header, before any pixel is decoded")
    func hugeLogo() throws {
        let folder = try TestFiles.temporaryFolder("logo-huge")
        // The signature and an IHDR chunk saying 20000×20000, then nothing a decoder could use.
        let header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                               0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        try TestFiles.write(header + [UInt8](repeating: 0, count: 64), to: folder + "/huge.png")
        let cache = LogoCache()
        #expect(try Self.reason(folder + "/huge.png", cache: cache)
            == "the logo is 20000×20000 pixels; a logo may have at most 16.7 million (4096×4096): scale it down")
        #expect(cache.statistics.decodes == 0)
    }

    @Test("workers share one decoded logo, kept at the size it is drawn")
    func shared() throws {
        let folder = try TestFiles.temporaryFolder("logo-shared")
        let path = try Self.square(2000, (255, 0, 255), in: folder, name: "big.png")
        let cache = LogoCache()
        let template = try Self.template(logo: path)
        let first = try Watermarker(fontConfig: Fixture.fontConfig, logos: cache)
        let second = try Watermarker(fontConfig: Fixture.fontConfig, logos: cache)
        var a = try Fixture.card(), b = try Fixture.card()
        try first.stamp(&a, template: template, fields: Fixture.fields)
        try second.stamp(&b, template: template, fields: Fixture.fields)
        #expect(PixelCompare.meanDifference(a.bitmap, b.bitmap) == 0)
        // One decode; one 27×27 image (0.1 of the 270-pixel short side) held, not 2000×2000 (16 MB).
        #expect(cache.statistics == LogoCache.Statistics(decodes: 1, images: 1, bytes: 27 * 27 * 4))
        // Another photo size scales again: the 4-megapixel source was not kept, so it is decoded again.
        var large = try Fixture.card(width: 960, height: 540)
        try first.stamp(&large, template: template, fields: Fixture.fields)
        #expect(cache.statistics.decodes == 2 && cache.statistics.images == 2)
    }

    @Test("workers on two threads stamp the same pixels from the shared cache")
    func threads() throws {
        let folder = try TestFiles.temporaryFolder("logo-threads")
        let template = try Self.template(logo: try Self.square(300, (0, 200, 0), in: folder, name: "logo.png"))
        let cache = LogoCache()
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            guard let watermarker = try? Watermarker(fontConfig: Fixture.fontConfig, logos: cache),
                  var photo = try? Fixture.card(), (try? watermarker.stamp(&photo, template: template, fields: Fixture.fields)) != nil
            else { return }
            results.add(photo)
        }
        let photos = results.photos
        #expect(photos.count == 4)
        for photo in photos.dropFirst() { #expect(PixelCompare.meanDifference(photos[0].bitmap, photo.bitmap) == 0) }
        #expect(cache.statistics.decodes == 1)
    }

    @Test("a logo changed on disk is read again")
    func reloads() throws {
        let folder = try TestFiles.temporaryFolder("logo-reload")
        let path = try Self.square(64, (255, 0, 0), in: folder, name: "logo.png")
        let template = try Self.template(logo: path)
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig, logos: LogoCache())
        var red = try Fixture.card()
        let box = try #require(try watermarker.stamp(&red, template: template, fields: Fixture.fields).boxes.first)
        _ = try Self.square(80, (0, 0, 255), in: folder, name: "logo.png")  // another size: a changed file
        var blue = try Fixture.card()
        try watermarker.stamp(&blue, template: template, fields: Fixture.fields)
        #expect(red.bitmap.rgb(x: Int(box.x) + 12, y: Int(box.y) + 12).red > 200)
        #expect(blue.bitmap.rgb(x: Int(box.x) + 12, y: Int(box.y) + 12).blue > 200)
    }

    @Test("logos in every PNG form are drawn in their colour and with their transparency over the box",
          arguments: [PNGFixture.Form.palette, .greyAlpha(bits: 8), .greyAlpha(bits: 16), .rgb(bits: 16), .rgba(bits: 8)], [false, true])
    func forms(form: PNGFixture.Form, interlaced: Bool) throws {
        let folder = try TestFiles.temporaryFolder("logo-forms")
        /// A light grey logo (grey forms keep only the red) with this opacity: the pixel it leaves in
        /// the logo's place, and the box's own colour beside it.
        func stamp(_ alpha: UInt8) throws -> (logo: Int, box: Int) {
            let path = folder + "/logo-\(alpha).png"
            try TestFiles.write(PNGFixture.make(width: 64, height: 64, form: form, interlaced: interlaced) { _, _ in (230, 230, 230, alpha) },
                                to: path)
            var photo = try Fixture.card()
            let box = try #require(try Watermarker(fontConfig: Fixture.fontConfig, logos: LogoCache())
                .stamp(&photo, template: try Self.template(logo: path), fields: Fixture.fields).boxes.first)
            let logo = photo.bitmap.rgb(x: Int(box.x) + 12, y: Int(box.y) + 12), padding = photo.bitmap.rgb(x: Int(box.x) + 2, y: Int(box.y) + 2)
            #expect(logo.red == logo.green && logo.green == logo.blue, "\(form): \(logo) is not grey")
            return (Int(logo.red), Int(padding.red))
        }
        let opaque = try stamp(255)
        #expect(abs(opaque.logo - 230) <= 3, "\(form): \(opaque)")
        guard form.hasAlpha else { return }
        let half = try stamp(128), clear = try stamp(0)
        #expect(abs(half.logo - (230 * 128 + half.box * 127) / 255) <= 3, "\(form), half transparent: \(half)")
        #expect(abs(clear.logo - clear.box) <= 3, "\(form), transparent: \(clear)")
    }

    @Test("a very wide logo is limited to half the box's width beside the text")
    func wideLogo() throws {
        let folder = try TestFiles.temporaryFolder("logo-wide")
        var strip = try #require(Bitmap(width: 4000, height: 20))
        for y in 0..<20 { for x in 0..<4000 { strip.setRGB(x: x, y: y, (255, 255, 0)) } }
        #expect(strip.writePNG(to: folder + "/strip.png"))
        let box = try #require(try Watermarker(fontConfig: Fixture.fontConfig, logos: LogoCache())
            .stampCard(template: try Self.template(logo: folder + "/strip.png", size: 0.2), fields: Fixture.fields).boxes.first)
        #expect(box.width <= 480 * 0.75 + 1)
    }

    @Test("check names a broken logo as a problem of the template")
    func validation() throws {
        let problems = try Watermarker(fontConfig: Fixture.fontConfig, logos: LogoCache()).validate(try Self.template(logo: "/etc/passwd"))
        #expect(problems.map(\.description) == ["classic.json: blocks[0].logo.file: /etc/passwd: cannot use this logo: not a PNG file"])
    }
}

/// Photos collected from several threads.
private final class Results: Sendable {
    private let storage = Mutex<[Photo]>([])
    func add(_ photo: Photo) { storage.withLock { $0.append(photo) } }
    var photos: [Photo] { storage.withLock { $0 } }
}
