import Imaging
import Library
import Platform
import Session
import Watermark

/// `stampcam restamp`: stamped photos made again from their kept originals in another style, with
/// the same field values (any of them given again wins). Writes new files; replaces only with
/// `--overwrite`, and never an original.
enum RestampCommand: Command {
    static let output = Option.text("output", short: "o", value: "DIR",
                                    help: marked("option", "folder for the new photos (default: beside each photo, named NAME-STYLE.jpg)"))
    static let overwrite = Flag("overwrite", help: marked("option", "replace the stamped photo (or a file of the same name in DIR)"))
    static let maxSize = Option.integer("max-size", value: "PX", in: 0...65535,
                                        help: marked("option", "fit the long side to PX pixels (default: the stamped photo's size)"))
    static let quality = Option.integer("quality", value: "Q", in: 1...100, help: marked("option", "JPEG quality 1-100 (default 90)"))

    static let spec = CommandSpec(
        name: "restamp",
        usage: "restamp PHOTO... -t STYLE [options] [-o DIR]",
        summary: marked("command", "Stamp photos again from their kept originals, in another style, with the same values."),
        options: [output, overwrite, maxSize, quality, ApplyCommand.lossless, ApplyCommand.reencode] + StampOptions.all + CatalogOptions.writing
            + SigningOptions.writing)

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        guard !options.positionals.isEmpty else { throw UsageError.missing("at least one PHOTO", command: spec.name) }
        try UnquotedPath.check(options.positionals)
        let stamp = try StampOptions.values(options)
        guard stamp.templateChoice != nil else { throw UsageError.missing("a style: -t STYLE", command: spec.name) }
        let store = try context.templates(extraFolders: stamp.templateFolders)
        let style = try store.resolve(stamp.templateChoice)
        let watermarker = try Watermarker(fontConfig: context.resources.fontConfig)
        for warning in try TemplateStore.requireValid(style, checkingWith: watermarker, variables: Set(stamp.fields.given.extra.keys)) {
            context.console.err("stampcam: " + warning.description)
        }
        var folder = try options.value(output)
        if let given = folder, given.count > 1, given.hasSuffix("/") { folder = String(given.dropLast()) }
        let overwriting = options.flag(overwrite)
        if options.flag(ApplyCommand.lossless) && options.flag(ApplyCommand.reencode) {
            throw UsageError.badValue(option: "--lossless", value: "with --reencode", expected: "given together (choose one)")
        }
        var settings = Restamp.Settings(style: style, fields: stamp.fields, output: folder, overwrite: overwriting,
                                        load: LoadOptions(maxSize: try options.value(maxSize) ?? 0))
        settings.inPlace = !options.flag(ApplyCommand.reencode)
        var writerSettings = PhotoWriter.Settings(quality: try options.value(quality) ?? 90, replace: overwriting, version: StampCLI.version)
        let logging = try CatalogOptions.log(options, context: context, command: .restamp)
        writerSettings.log = logging
        writerSettings.signer = try SigningOptions.signer(options, context: context, command: spec.name)
        writerSettings.verifyURL = try options.value(SigningOptions.verifyURL)
        let writer = PhotoWriter(watermarker: watermarker, settings: writerSettings)
        var failures: [Failure] = []
        var told = Set<String>()
        for photo in options.positionals {
            do {
                let written = try Restamp.run(photo, settings: settings, writer: writer)
                for warning in written.warnings { context.console.err("stampcam: \(PathEncoding.display(photo)): warning: \(warning)") }
                if let why = written.reencoded {
                    context.console.err("stampcam: \(PathEncoding.display(photo)): note: re-encoded whole, not stamped in place: \(why)")
                }
                for note in written.stampNotes where told.insert(note).inserted { context.console.err("stampcam: warning: " + note) }
                context.console.out(written.path)
            } catch {
                let failure = Failure(error, path: photo)
                failures.append(failure)
                context.console.err("stampcam: " + failure.message)
            }
        }
        let first = options.positionals[0]
        let besideFirst = first.lastIndex(of: "/").map { String(first[..<$0]) } ?? "."
        CatalogOptions.tellMissed(logging, folder: folder ?? (besideFirst.isEmpty ? "/" : besideFirst), console: context.console)
        if writerSettings.signer == nil { context.console.err(SigningOptions.unsignedNote) }
        return Failure.exitCode(for: failures)
    }
}
