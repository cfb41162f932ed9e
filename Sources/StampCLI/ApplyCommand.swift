import Imaging
import Library
import Platform
import Session
import Synchronization
import Templates
import Watermark

/// `stampcam apply`: stamps photos on disk into an output folder, in parallel, safely resumable.
/// Originals are only read.
enum ApplyCommand: Command {
    static let output = Option.text("output", short: "o", value: "DIR",
                                    help: marked("option", "folder for the stamped photos (created if missing; input folders are mirrored in it)"))
    static let name = StampOptions.name(help: marked("option", "output file name, e.g. '{date}-{basename}.jpg' (default: the input's name)"))
    static let overwrite = Flag("overwrite", help: marked("option", "replace existing outputs instead of adding -1, -2 …"))
    static let skipExisting = Flag("skip-existing", help: marked("option", "leave photos whose output already exists (resume a batch)"))
    static let jobs = Option.integer("jobs", short: "j", value: "N", in: 1...256, help: marked("option", "photos stamped at once (default: the number of cores)"))
    static let maxSize = Option.integer("max-size", value: "PX", in: 0...65535, help: marked("option", "fit the long side to PX pixels; 0 keeps the size (default 1024)"))
    static let quality = Option.integer("quality", value: "Q", in: 1...100, help: marked("option", "JPEG quality 1-100 (default 90)"))
    static let maxPixels = Option.integer("max-pixels", value: "MP", in: 1...100_000, help: marked("option", "refuse photos above MP megapixels (default 200)"))
    static let maxMemory = Option.integer("max-memory", value: "MB", in: 16...1_000_000,
                                          help: marked("option", "refuse photos that would need more memory to decode (default 512)"))
    static let salvage = Flag("salvage", help: marked("option", "stamp what decodes of a damaged photo (with a warning) instead of refusing it"))
    static let shard = Option<ApplyJob.Shard>("shard", value: "K/N",
                                              help: marked("option", "only part K of N (0 ≤ K < N) of the photos: N scheduler tasks with the same inputs stamp each photo once")) { text throws(UsageError) in
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw .badValue(option: "--shard", value: text, expected: "K/N with 0 ≤ K < N, like 2/4")
        }
        guard count <= 1_000_000, let shard = ApplyJob.Shard(index: index, count: count) else {
            throw .outOfRange(option: "--shard", value: text, range: "N goes from 1 to 1000000, K from 0 to N-1")
        }
        return shard
    }
    static let stampAgain = Flag("stamp-again", help: marked("option", "stamp photos stampcam stamped before, over their stamp (default: refuse them)"))
    static let lossless = Flag("lossless", help: marked("option", "at full size, stamp JPEGs in place: only the blocks under the stamp are encoded again (default)"))
    static let reencode = Flag("reencode", help: marked("option", "decode and encode every photo whole, also at full size"))
    static let quiet = Flag("quiet", short: "q", help: marked("option", "no progress bar, no summary unless something failed"))
    static let json = Flag("json", help: marked("option", "print one JSON object per photo: input, output, status, error"))

    static let spec = CommandSpec(
        name: "apply",
        usage: "apply [options] PHOTO|FOLDER|-... -o DIR",
        summary: marked("command", "Stamp existing photos (JPEG, HEIC, PNG) into JPEGs: upright, resized, stamped, EXIF kept. Originals are never changed."),
        options: [output, name, overwrite, skipExisting, jobs, shard, maxSize, quality, maxPixels, maxMemory, salvage, stampAgain,
                  lossless, reencode, quiet, json]
            + StampOptions.all + CatalogOptions.writing + SigningOptions.writing)

    /// How the results are shown.
    struct Display {
        var quiet: Bool
        var json: Bool
    }

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let job = Mutex<ApplyJob?>(nil)
        let stopRequested = Mutex(false)
        // A first Ctrl-C lets the photos in flight finish (a second one ends the process at once).
        let interrupt = Signals.shared.interceptInterrupt {
            stopRequested.withLock { $0 = true }
            job.withLock { $0?.stop() }
        }
        defer { interrupt.cancel() }
        // The fonts are set up on a thread of their own while the options, the style and the first
        // photo are read.
        let fonts = try Pending { [fontConfig = context.resources.fontConfig] in try Watermarker(fontConfig: fontConfig) }
        // Whatever ends the command, the fonts are not left half set up on the other thread.
        defer { fonts.wait() }
        guard !options.positionals.isEmpty else { throw UsageError.missing("at least one PHOTO or FOLDER", command: spec.name) }
        try UnquotedPath.check(options.positionals)
        guard let given = try options.value(output), !given.isEmpty else {
            throw UsageError.missing("an output folder: -o DIR", command: spec.name)
        }
        // `-o photo.jpg` with one photo writes that file (its name wins over a --name).
        let target = OutputTarget(parsing: given)
        if case .file = target, !(options.positionals.count == 1 && options.positionals[0] != "-"
                                  && FileStatus(path: FilePath(options.positionals[0]))?.isFolder != true) {
            throw UsageError.badValue(option: "--output", value: given,
                                      expected: "usable with several photos or a folder: it names one file; give a folder (-o DIR)")
        }
        let folder = target.folder
        if options.flag(overwrite) && options.flag(skipExisting) {
            throw UsageError.badValue(option: "--overwrite", value: "with --skip-existing", expected: "given together (choose one)")
        }
        if options.flag(lossless) && options.flag(reencode) {
            throw UsageError.badValue(option: "--lossless", value: "with --reencode", expected: "given together (choose one)")
        }
        var stamp = try StampOptions.values(options, context: context)
        let style = try context.template(stamp.templateChoice, extraFolders: stamp.templateFolders)
        let nameTemplate = try StampOptions.nameTemplate(options, name, given: stamp.fields.given)
        StampOptions.preparePlaces(&stamp, styles: [style], chosen: style, name: nameTemplate, console: context.console)
        let variables = Set(stamp.fields.given.extra.keys)
        let load = LoadOptions(maxSize: try options.value(maxSize) ?? 1024, pixelLimit: (try options.value(maxPixels) ?? 200) * 1_000_000,
                               memoryLimit: (try options.value(maxMemory)).map { $0 * 1_000_000 } ?? LoadOptions.defaultMemoryLimit,
                               salvage: options.flag(salvage))
        // Once the fonts are set up, the style is checked with them: a template with errors stops
        // the batch before any photo is written (one line, exit 65).
        let ready = { [console = context.console, given = stamp.fields.given] () throws -> Watermarker in
            let watermarker = try fonts.take()
            for warning in try TemplateStore.requireValid(style, checkingWith: watermarker, variables: variables) {
                console.err("stampcam: " + warning.description)
            }
            if let warning = StampOptions.notShownWarning(style, given: given) { console.err("stampcam: " + warning) }
            return watermarker
        }
        let logging = try CatalogOptions.log(options, context: context, command: .apply)
        var settings = ApplyJob.Settings(
            output: folder,
            load: load,
            writer: PhotoWriter.Settings(quality: try options.value(quality) ?? 90, replace: options.flag(overwrite),
                                         version: StampCLI.version),
            existing: options.flag(overwrite) ? .replace : options.flag(skipExisting) ? .skip : .number,
            jobs: try options.value(jobs) ?? Cores.count,
            nameTemplate: target.nameTemplate ?? nameTemplate,
            style: style, fields: stamp.fields, fontConfig: context.resources.fontConfig, shard: try options.value(shard),
            stampAgain: options.flag(stampAgain))
        settings.writer.log = logging
        settings.writer.signer = try SigningOptions.signer(options, context: context, command: spec.name)
        settings.writer.verifyURL = try options.value(SigningOptions.verifyURL)
        settings.markFolder = target.fileName == nil
        settings.inPlace = !options.flag(reencode)
        let inputs = ApplyInputs(options.positionals, excluding: FileIdentity(path: FilePath(folder)),
                                 standardInput: StandardInput.lines)
        for note in inputs.notes { context.console.err("stampcam: note: " + note) }
        let part = settings.shard
        let total = inputs.items.filter { part?.contains($0) ?? true }.count
            + inputs.failures.filter { part?.contains(PhotoName.lastComponent($0.input)) ?? true }.count
        let tally = Tally(total: total, console: context.console,
                          display: Display(quiet: options.flag(quiet), json: options.flag(json)), salvageHelps: !settings.load.salvage)
        let started = ApplyJob(settings: settings)
        job.withLock { $0 = started }
        if stopRequested.withLock({ $0 }) { started.stop() }
        let summary = try started.run(inputs, ready: ready) { tally.record($0) }
        defer { CatalogOptions.tellMissed(logging, folder: folder, console: context.console) }
        if settings.writer.signer == nil { context.console.err(SigningOptions.unsignedNote) }
        if let why = summary.outputLost {
            // The photos in flight have said why each failed; this says why the others were not started.
            context.console.err("stampcam: \(PathEncoding.display(folder)): \(why)")
        }
        return tally.finish(interrupted: summary.interrupted, outputLost: summary.outputLost != nil)
    }
}
