import Imaging
import Library
import Platform
import Session
import Templates
import Watermark

/// `stampcam styles`: lists the watermark styles in cycle order, or renders them all on one photo.
enum StylesCommand: Command {
    static let sheet = Option.text("sheet", value: "PHOTO", help: marked("option", "render every style on PHOTO (use 'test-card' for the built-in card)"))
    static let output = Option.text("output", short: "o", value: "FILE", help: marked("option", "where to write the contact sheet (default styles.jpg)"))
    static let overwrite = Flag("overwrite", help: marked("option", "replace FILE when it exists (never when it is PHOTO)"))

    static let spec = CommandSpec(
        name: "styles",
        usage: "styles [--sheet PHOTO -o SHEET.jpg] [options]",
        summary: marked("command", "List the watermark styles in cycle order, or draw every style on one photo into a contact sheet."),
        options: [sheet, output, overwrite] + StampOptions.all)

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let stamp = try StampOptions.values(options, context: context)
        let store = try context.templates(extraFolders: stamp.templateFolders)
        for problem in store.problems { context.console.err("stampcam: warning: " + problem) }
        guard let source = try options.value(sheet) else {
            let idWidth = (store.catalog.entries.map(\.template.id.count).max() ?? 0) + 2
            // The default is the style a bare `apply` or `shoot` would use: the config file's
            // "template" (or -t) when set, else classic.
            let chosen = (try? store.resolve(stamp.templateChoice))?.id ?? TemplateCatalog.defaultID
            for entry in store.catalog.entries {
                let template = entry.template
                let marker = template.id == chosen ? " (default)" : ""
                context.console.out(template.id.padding(idWidth) + "\(template.name)\(marker) [\(entry.source.rawValue)] — \(template.description)"
                    + " Shows: \(template.shownFieldNames.joined(separator: ", ")).")
            }
            return .success
        }
        let watermarker = try Watermarker(fontConfig: context.resources.fontConfig)
        let photo: Photo
        var fields: Fields
        var protected: Set<FileIdentity> = []
        if source == "test-card" {
            guard let card = TestCard.draw(width: 640, height: 360) else { throw Failure("out of memory", code: .unavailable) }
            photo = Photo(bitmap: card)
            fields = stamp.fields.fieldsNow()
        } else {
            let load = LoadOptions(maxSize: 640)
            let file: FileContents
            do {
                file = try InputFile.photo(source, check: load.check)
                photo = try Photo(file: file, options: load)
            } catch {
                throw Failure(error, path: source)
            }
            protected.insert(file.status.identity)
            for warning in photo.metadata.warnings { context.console.err("stampcam: \(PathEncoding.display(source)): warning: \(warning)") }
            fields = stamp.fields.fields(for: photo.metadata, fileTime: FieldPolicy.fileTime(modified: file.status.modified))
            fields.filename = source.split(separator: "/").last.map(String.init) ?? source
        }
        let usable = store.usableStyles(checkingWith: watermarker, variables: Set(stamp.fields.given.extra.keys))
        for problem in usable.problems { context.console.err("stampcam: warning: left off the sheet: " + problem.description) }
        var tiles: [(photo: Photo, caption: String)] = []
        for (index, style) in usable.styles.enumerated() {
            tiles.append((try watermarker.stamped(photo, template: style, fields: fields), "\(index + 1). \(style.name) (\(style.id))"))
        }
        guard let contactSheet = watermarker.contactSheet(tiles, columns: tiles.count > 4 ? 3 : 2) else {
            throw Failure("out of memory for the contact sheet", code: .unavailable)
        }
        let target = try options.value(output) ?? "styles.jpg"
        // The same rules as every write: never over an input (also with --overwrite), never over an
        // existing file unless asked (styles-1.jpg instead), into a FIFO or device but never over one.
        context.console.out(try OutputFile.write(try contactSheet.jpeg(quality: 88), to: target,
                                                 overwrite: options.flag(overwrite), protected: protected))
        return .success
    }
}
