import Imaging
import Library
import Templates
import Watermark

/// `stampcam apply`: stamps photos on disk into an output folder; originals are only read.
enum ApplyCommand {
    static let spec = CommandSpec(
        name: "apply",
        usage: "apply [options] PHOTO... -o DIR",
        summary: "Stamp existing JPEG photos: upright, resized, stamped, EXIF kept. Originals are never changed.",
        options: [
            OptionSpec("output", short: "o", value: "DIR", help: "folder for the stamped photos (created if missing)"),
            OptionSpec("max-size", value: "PX", help: "fit the long side to PX pixels; 0 keeps the size (default 1024)"),
            OptionSpec("quality", value: "Q", help: "JPEG quality 1-100 (default 90)"),
            OptionSpec("max-pixels", value: "MP", help: "refuse photos above MP megapixels (default 200)"),
            OptionSpec("overwrite", help: "replace existing outputs instead of adding -1, -2 …"),
        ] + FieldOptions.table + [
            OptionSpec("help", short: "h", help: "show this help"),
        ])

    struct Settings {
        var inputs: [String]
        var outputFolder: String
        var load: LoadOptions
        var quality: Int
        var overwrite: Bool
        var fields: Fields
    }

    static func settings(from options: ParsedOptions) throws(UsageError) -> Settings {
        guard !options.positionals.isEmpty else { throw .missing("at least one PHOTO", command: spec.name) }
        guard let output = options.value("output"), !output.isEmpty else {
            throw .missing("an output folder: -o DIR", command: spec.name)
        }
        let maxSize = try options.integer("max-size", in: 0...65535, default: 1024)
        let megapixels = try options.integer("max-pixels", in: 1...100_000, default: 200)
        return Settings(
            inputs: options.positionals, outputFolder: output,
            load: LoadOptions(maxSize: maxSize, pixelLimit: megapixels * 1_000_000),
            quality: try options.integer("quality", in: 1...100, default: 90),
            overwrite: options.flag("overwrite"),
            fields: try FieldOptions.parse(options))
    }

    static func run(_ settings: Settings, resources: Resources, console: Console) -> ExitCode {
        let watermarker: Watermarker
        do {
            try OutputFolder.prepare(settings.outputFolder)
            watermarker = try Watermarker(fontConfig: resources.fontConfig)
        } catch {
            let failure = Failure(error, path: settings.outputFolder)
            console.err("stampcam: " + failure.message)
            return failure.code
        }
        let protected = Set(settings.inputs.compactMap(FileIdentity.init(path:)))
        var failures: [Failure] = []
        for input in settings.inputs {
            do {
                let written = try stamp(input, settings: settings, watermarker: watermarker,
                                        protected: protected, console: console)
                console.out(written)
            } catch {
                let failure = Failure(error, path: input)
                console.err("stampcam: " + failure.message)
                failures.append(failure)
            }
        }
        let done = settings.inputs.count - failures.count
        if !failures.isEmpty {
            console.err("stampcam: \(done) of \(settings.inputs.count) photos stamped, \(failures.count) failed")
        }
        return Failure.exitCode(for: failures)
    }

    /// One photo through the whole pipeline; returns the path written.
    static func stamp(_ input: String, settings: Settings, watermarker: Watermarker,
                      protected: Set<FileIdentity>, console: Console) throws -> String {
        let bytes = try InputFile.read(input)
        let photo = try Photo(jpeg: bytes, options: settings.load)
        for warning in photo.metadata.warnings {
            console.err("stampcam: \(input): warning: \(warning)")
        }
        var fields = FieldOptions.merge(settings.fields, with: photo.metadata)
        fields.filename = baseName(input)
        watermarker.stamp(photo, with: fields)
        let jpeg = try photo.jpeg(quality: settings.quality)
        return try AtomicFile.write(jpeg, directory: settings.outputFolder, name: baseName(input),
                                    overwrite: settings.overwrite, protected: protected)
    }

    static func baseName(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return trimmed.split(separator: "/").last.map(String.init) ?? trimmed
    }
}
