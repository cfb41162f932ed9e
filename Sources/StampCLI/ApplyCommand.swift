import Platform
import Foundation
import Imaging
import Library
import Templates

/// `stampcam apply`: stamps photos on disk into an output folder, in parallel, safely resumable.
/// Originals are only read.
enum ApplyCommand: Command {
    static let spec = CommandSpec(
        name: "apply",
        usage: "apply [options] PHOTO|FOLDER|-... -o DIR",
        summary: "Stamp existing JPEG photos: upright, resized, stamped, EXIF kept. Originals are never changed.",
        options: [
            OptionSpec("output", short: "o", value: "DIR", help: "folder for the stamped photos (created if missing; input folders are mirrored in it)"),
            OptionSpec("name", value: "TEMPLATE", help: "output file name, e.g. '{date}-{basename}.jpg' (default: the input's name)"),
            OptionSpec("overwrite", help: "replace existing outputs instead of adding -1, -2 …"),
            OptionSpec("skip-existing", help: "leave photos whose output already exists (resume a batch)"),
            OptionSpec("jobs", short: "j", value: "N", help: "photos stamped at once (default: the number of cores)"),
            OptionSpec("max-size", value: "PX", help: "fit the long side to PX pixels; 0 keeps the size (default 1024)"),
            OptionSpec("quality", value: "Q", help: "JPEG quality 1-100 (default 90)"),
            OptionSpec("max-pixels", value: "MP", help: "refuse photos above MP megapixels (default 200)"),
            OptionSpec("quiet", short: "q", help: "no progress bar, no summary unless something failed"),
            OptionSpec("json", help: "print one JSON object per photo: input, output, status, error"),
        ] + FieldOptions.table)

    struct Settings: Sendable {
        var output: String
        var load: LoadOptions
        var quality: Int
        var overwrite: Bool
        var skipExisting: Bool
        var jobs: Int
        var quiet: Bool
        var json: Bool
        var nameTemplate: TextTemplate?
    }

    static func settings(_ options: ParsedOptions) throws(UsageError) -> Settings {
        guard !options.positionals.isEmpty else { throw .missing("at least one PHOTO or FOLDER", command: spec.name) }
        guard let output = options.value("output"), !output.isEmpty else {
            throw .missing("an output folder: -o DIR", command: spec.name)
        }
        var nameTemplate: TextTemplate?
        if let name = options.value("name") {
            do { nameTemplate = try TextTemplate(name) } catch {
                throw .badValue(option: "--name", value: name, expected: "a name template (\(error))")
            }
        }
        return Settings(
            output: output.count > 1 && output.hasSuffix("/") ? String(output.dropLast()) : output,
            load: LoadOptions(maxSize: try options.integer("max-size", in: 0...65535, default: 1024),
                              pixelLimit: try options.integer("max-pixels", in: 1...100_000, default: 200) * 1_000_000),
            quality: try options.integer("quality", in: 1...100, default: 90),
            overwrite: options.flag("overwrite"), skipExisting: options.flag("skip-existing"),
            jobs: try options.integer("jobs", in: 1...256, default: ProcessInfo.processInfo.activeProcessorCount),
            quiet: options.flag("quiet"), json: options.flag("json"), nameTemplate: nameTemplate)
    }

    static func run(_ options: ParsedOptions, resources: Resources, console: Console) throws -> ExitCode {
        let settings = try settings(options)
        let fieldOptions = try FieldOptions(options)
        let folders = OutputFolders()
        try folders.prepare(settings.output)
        let (items, missing) = BatchInputs.expand(options.positionals, skipping: FileIdentity(path: settings.output),
                                                  standardInput: BatchInputs.readStandardInput)
        let protected = Set(items.map(\.status.identity))
        let tally = Tally(total: items.count + missing.count, console: console, settings: settings)
        for (path, failure) in missing { tally.record(failure: failure, input: path) }

        let runner = BatchRunner<Stamper>(items: items, workers: settings.jobs)
        let interruption = Interruption()
        interruption.start { runner.stop() }
        defer { interruption.stop() }
        try runner.run(
            makeContext: { try Stamper(resources: resources, fieldOptions: fieldOptions, load: settings.load,
                                       quality: settings.quality) },
            process: { stamper, item in
                stamp(item, stamper: stamper, settings: settings, folders: folders, protected: protected, console: console)
            },
            report: { tally.record($0) })
        return tally.finish(interrupted: interruption.requested)
    }

    /// One photo through the whole pipeline.
    static func stamp(_ item: BatchItem, stamper: Stamper, settings: Settings, folders: OutputFolders,
                      protected: Set<FileIdentity>, console: Console) -> BatchRunner<Stamper>.Outcome {
        let folder = item.subfolder.isEmpty ? settings.output : settings.output + "/" + item.subfolder
        /// With --skip-existing, an output already there ends the work on this photo.
        func existing(_ name: String) -> BatchRunner<Stamper>.Outcome? {
            guard settings.skipExisting, FileManager.default.fileExists(atPath: folder + "/" + name) else { return nil }
            try? folders.prepare(folder)  // a killed run's temp files go, also where all is done
            return .init(item: item, status: .skipped, output: folder + "/" + name)
        }
        do {
            let defaultName = (item.input as NSString).lastPathComponent
            // The input's own name is known before decoding; a --name needs the photo's fields.
            if settings.nameTemplate == nil, let skipped = existing(defaultName) { return skipped }
            let photo = try stamper.photo(from: try InputFile.read(item.input), path: item.input) { console.err("stampcam: " + $0) }
            var fields = stamper.fieldOptions.fields(for: photo.metadata, 
                                                        fileTime: Clock.local(seconds: time_t(item.status.modified)))
            fields.filename = defaultName
            fields.sequence = item.sequence
            let name = PhotoName.make(template: settings.nameTemplate, input: item.input, fields: fields)
            if settings.nameTemplate != nil, let skipped = existing(name) { return skipped }
            let jpeg = try stamper.stampedJPEG(photo, fields: fields)
            // Created only now, so a subfolder of bad photos leaves no empty folder behind.
            try folders.prepare(folder)
            let written = try AtomicFile.write(jpeg, directory: folder, name: name, overwrite: settings.overwrite,
                                               protected: protected)
            return .init(item: item, status: .done, output: written)
        } catch {
            return .init(item: item, status: .failed, failure: Failure(error, path: item.input))
        }
    }
}
