import FoundationEssentials
import Platform
import Session
import Imaging
import Library
import Templates
import Watermark

/// `stampcam bench`: where the time of one photo goes (read, decode with shrink-on-load, stamp per
/// style, encode). For `make bench` and for profiling; the numbers are CPU time on this machine.
enum BenchCommand: Command {
    static let spec = CommandSpec(
        name: "bench",
        usage: "bench [PHOTO] [--rounds N]",
        summary: marked("command", "Measure the pipeline stages and each style's stamp on PHOTO (default: the test card), in ms."),
        options: [rounds])

    static let rounds = Option.integer("rounds", value: "N", in: 1...10_000, help: marked("option", "repetitions per measurement (default 20)"))

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let rounds = try options.value(Self.rounds) ?? 20
        let console = context.console
        let store = try context.templates(extraFolders: [])
        let watermarker = try Watermarker(fontConfig: context.resources.fontConfig)
        let fields = TemplatesCommand.sample
        let photo: Photo
        if let path = options.positionals.first {
            let bytes = try InputFile.read(path, limit: 1 << 30)
            console.out("photo: \(path) (\(bytes.count / 1024) KB)")
            console.out("  decode+orient+fit 1024: \(milliseconds(rounds) { _ = try Photo(jpeg: bytes) }) ms")
            photo = try Photo(jpeg: bytes)
            console.out("  (decoded at \(photo.decodeEighths)/8 of \(photo.sourceWidth)x\(photo.sourceHeight), out \(photo.width)x\(photo.height))")
        } else {
            guard let card = TestCard.draw(width: 1024, height: 683) else { throw Failure("out of memory", code: .unavailable) }
            photo = Photo(bitmap: card)
            console.out("photo: test card 1024x683")
        }
        for entry in store.catalog.entries {
            let time = milliseconds(rounds) {
                _ = try watermarker.stamped(photo, template: entry.template, fields: fields)
            }
            console.out("  stamp \(entry.template.id.padding(12)): \(time) ms (copy included)")
        }
        console.out("  encode q90 + EXIF: \(milliseconds(rounds) { _ = try photo.jpeg() }) ms")
        try viewfinder(rounds: rounds, watermarker: watermarker, store: store, fields: fields, console: console)
        return .success
    }

    /// The viewfinders' frame rate without a camera's pace: a 1280x720 MJPEG frame decoded shrunk
    /// for a terminal's picture (320x180: 160 columns of half blocks) or the browser's 960 px live
    /// view, stamped (the template parsed once, as frame after frame of one style), and for the
    /// browser encoded as JPEG again.
    static func viewfinder(rounds: Int, watermarker: Watermarker, store: TemplateStore, fields: Fields,
                           console: Console) throws {
        guard let card = TestCard.draw(width: 1280, height: 720) else { throw Failure("out of memory", code: .unavailable) }
        let frame = try Photo(bitmap: card).encoded(quality: 85).bytes
        let template = store.catalog.entries[0].template
        for (name, size, encode) in [("terminal", (320, 180), false), ("browser", (960, 540), true)] {
            let time = milliseconds(rounds) {
                let decoded = try Photo(jpeg: frame, options: LoadOptions(maxSize: max(size.0, size.1)))
                let picture = try ShootController.viewfinderPicture(decoded, template: template, fields: fields, fitting: size,
                                                                    watermarker: watermarker)
                if encode { _ = try Photo(bitmap: picture).encoded(quality: 80) }
            }
            let rate = Int((1000 / max(Double(time) ?? 1, 0.001)).rounded())
            console.out("  viewfinder \(name) \(size.0)x\(size.1)\(encode ? " + JPEG" : ""), \(template.id): \(time) ms a frame = \(rate) frames/s")
        }
    }

    /// Mean wall time of `body` in ms, two decimals, after one warm-up run.
    static func milliseconds(_ rounds: Int, _ body: () throws -> Void) -> String {
        try? body()
        let start = WallClock.monotonic()
        for _ in 0..<rounds { try? body() }
        let mean = (WallClock.monotonic() - start) / Double(rounds) * 1000
        let hundredths = Int((mean * 100).rounded())
        return "\(hundredths / 100)." + (hundredths % 100 < 10 ? "0" : "") + "\(hundredths % 100)"
    }
}
