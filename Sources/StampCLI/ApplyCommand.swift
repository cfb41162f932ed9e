import Imaging
import Library
import Templates

/// `stampcam apply`: stamps photos on disk into an output folder; originals are only read.
enum ApplyCommand: Command {
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

    static func run(_ options: ParsedOptions, resources: Resources, console: Console) throws -> ExitCode {
        guard !options.positionals.isEmpty else { throw UsageError.missing("at least one PHOTO", command: spec.name) }
        guard let output = options.value("output"), !output.isEmpty else {
            throw UsageError.missing("an output folder: -o DIR", command: spec.name)
        }
        let load = LoadOptions(maxSize: try options.integer("max-size", in: 0...65535, default: 1024),
                               pixelLimit: try options.integer("max-pixels", in: 1...100_000, default: 200) * 1_000_000)
        let stamper = try Stamper(resources: resources, fieldOptions: try FieldOptions(options), load: load,
                                  quality: try options.integer("quality", in: 1...100, default: 90))
        try OutputFolder.prepare(output)

        let inputs = options.positionals
        let protected = Set(inputs.compactMap(FileIdentity.init(path:)))
        var failures: [Failure] = []
        for (index, input) in inputs.enumerated() {
            do {
                let photo = try stamper.photo(from: try InputFile.read(input), path: input) { console.err("stampcam: " + $0) }
                var fields = stamper.fieldOptions.fields(for: photo.metadata, fileTime: Clock.modificationTime(of: input))
                fields.filename = baseName(input)
                fields.sequence = index + 1
                let jpeg = try stamper.stampedJPEG(photo, fields: fields)
                console.out(try AtomicFile.write(jpeg, directory: output, name: baseName(input),
                                                 overwrite: options.flag("overwrite"), protected: protected))
            } catch {
                let failure = Failure(error, path: input)
                console.err("stampcam: " + failure.message)
                failures.append(failure)
            }
        }
        if !failures.isEmpty {
            console.err("stampcam: \(inputs.count - failures.count) of \(inputs.count) photos stamped, \(failures.count) failed")
        }
        return Failure.exitCode(for: failures)
    }

    static func baseName(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return trimmed.split(separator: "/").last.map(String.init) ?? trimmed
    }
}
