import Foundation
import Imaging
import Library
import Templates

/// `stampcam styles`: lists the watermark styles in cycle order, or renders them all on one photo.
enum StylesCommand: Command {
    static let spec = CommandSpec(
        name: "styles",
        usage: "styles [--sheet PHOTO -o SHEET.jpg] [options]",
        summary: "List the watermark styles in cycle order, or draw every style on one photo into a contact sheet.",
        options: [
            OptionSpec("sheet", value: "PHOTO", help: "render every style on PHOTO (use 'test-card' for the built-in card)"),
            OptionSpec("output", short: "o", value: "FILE", help: "where to write the contact sheet (default styles.jpg)"),
        ] + FieldOptions.table)

    static func run(_ options: ParsedOptions, resources: Resources, console: Console) throws -> ExitCode {
        let fieldOptions = try FieldOptions(options)
        let store = TemplateStore(resources: resources, extraFolders: fieldOptions.templateFolders)
        for problem in store.problems { console.err("stampcam: warning: " + problem) }
        guard let sheetSource = options.value("sheet") else {
            let idWidth = (store.catalog.entries.map(\.template.id.count).max() ?? 0) + 2
            for entry in store.catalog.entries {
                let template = entry.template
                let marker = template.id == TemplateCatalog.defaultID ? " (default)" : ""
                console.out(template.id.padding(idWidth) + "\(template.name)\(marker) [\(entry.source.rawValue)] — \(template.description)")
            }
            return .success
        }
        let stamper = try Stamper(resources: resources, fieldOptions: fieldOptions, load: LoadOptions(maxSize: 640))
        let photo: Photo
        var fields: Fields
        if sheetSource == "test-card" {
            guard let card = TestCard.draw(width: 640, height: 360) else { throw Failure("out of memory", code: .unavailable) }
            photo = Photo(bitmap: card)
            fields = fieldOptions.fieldsNow()
        } else {
            photo = try stamper.photo(from: try InputFile.read(sheetSource), path: sheetSource) { console.err("stampcam: " + $0) }
            fields = fieldOptions.fields(for: photo.metadata, fileTime: Clock.modificationTime(of: sheetSource))
            fields.filename = (sheetSource as NSString).lastPathComponent
        }
        var tiles: [(photo: Photo, caption: String)] = []
        for (index, entry) in store.catalog.entries.enumerated() {
            let tile = try stamper.watermarker.stamped(photo, template: entry.template, fields: fields)
            tiles.append((tile, "\(index + 1). \(entry.template.name) (\(entry.template.id))"))
        }
        guard let sheet = stamper.watermarker.contactSheet(tiles, columns: tiles.count > 4 ? 3 : 2) else {
            throw Failure("out of memory for the contact sheet", code: .unavailable)
        }
        let target = (options.value("output") ?? "styles.jpg") as NSString
        let folder = target.deletingLastPathComponent.isEmpty ? "." : target.deletingLastPathComponent
        try OutputFolders.create(folder)
        console.out(try AtomicFile.write(try sheet.jpeg(quality: 88), directory: folder, name: target.lastPathComponent,
                                         overwrite: true))
        return .success
    }
}
