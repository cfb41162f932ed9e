import Imaging
import Platform
import Session
import Templates
import Values
import Watermark

/// `stampcam templates check`: validates template files and warns about text no font can show.
enum TemplatesCommand: Command {
    static let spec = CommandSpec(
        name: "templates",
        usage: "templates check [FILE...] [options]",
        summary: marked("command", "Check templates (the given files, else all known): JSON, markup, and glyphs for the given field values."),
        // Which style -t picks means nothing here: the files given (or all) are checked.
        options: StampOptions.all.filter { $0.spec.long != StampOptions.template.spec.long })

    /// Field values that exercise every line when the user gives none.
    static let sample = Fields(time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00"), timeSource: "sample",
                               user: "Sample User", project: "Sample Project", location: "Sample Location",
                               note: "Sample note", latitude: 48.8584, longitude: 2.2945, altitude: 35,
                               camera: "Sample Camera", filename: "sample.jpg", sequence: 1)

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        guard options.positionals.first == "check" else {
            throw UsageError.missing("the subcommand 'check'", command: spec.name)
        }
        let stamp = try StampOptions.values(options)
        let files = Array(options.positionals.dropFirst())
        var templates: [(String, Template)] = []
        var problems: [Failure] = []
        if files.isEmpty {
            let store = try context.templates(extraFolders: stamp.templateFolders)
            problems += store.problems.map { Failure($0, code: .dataError) }
            templates = store.catalog.entries.map { ($0.file, $0.template) }
        } else {
            for file in files {
                do { templates.append((file, try TemplateStore.read(file))) } catch { problems.append(Failure(error, path: file)) }
            }
        }
        let watermarker = try Watermarker(fontConfig: context.resources.fontConfig)
        let fields = stamp.fields.given.filled(from: sample)
        for (file, template) in templates {
            let shown = PathEncoding.display(file)
            // The one validation every use of a template goes through; the problems name the file given.
            let found = watermarker.validate(template, variables: Set(stamp.fields.given.extra.keys))
            for problem in found {
                let line = "\(shown): \(problem.path.isEmpty ? "" : problem.path + ": ")"
                if problem.isError {
                    problems.append(Failure(line + problem.problem + StampOptions.advice(missingValue: problem.missingValue), code: .dataError))
                } else { context.console.err("stampcam: " + line + "warning: " + problem.problem) }
            }
            guard !found.contains(where: \.isError), let canvas = Bitmap(width: 1024, height: 768) else { continue }
            var photo = Photo(bitmap: canvas)
            for warning in try watermarker.stamp(&photo, template: template, fields: fields).warnings {
                context.console.err("stampcam: \(shown): warning: \(warning)")
            }
            context.console.out("\(shown): ok (\(template.id))")
        }
        for problem in problems { context.console.err("stampcam: " + problem.message) }
        return Failure.exitCode(for: problems)
    }
}
