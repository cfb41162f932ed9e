import Foundation
import Library
import Templates

/// Finds and reads templates: built-in (templates/ in the data folder), the user's
/// ($XDG_CONFIG_HOME/stampcam/templates), and any `--template-dir`; a later one overrides an
/// earlier one with the same id.
struct TemplateStore {
    let catalog: TemplateCatalog
    /// Templates that could not be read, one line each, for the commands that list or check.
    let problems: [String]

    static var userFolder: String { ConfigFolder.locate() + "/templates" }

    init(resources: Resources, extraFolders: [String]) {
        var entries: [TemplateCatalog.Entry] = []
        var problems: [String] = []
        let layers: [(String, TemplateCatalog.Source)] = [(resources.templates, .builtIn), (Self.userFolder, .user)]
            + extraFolders.map { ($0, .folder) }
        for (folder, source) in layers {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            if source == .folder && !FileManager.default.fileExists(atPath: folder) {
                problems.append("\(folder): no such template folder")
            }
            for name in names.sorted() where name.hasSuffix(".json") {
                do {
                    entries.append(TemplateCatalog.Entry(template: try Self.read(folder + "/" + name), source: source,
                                                         file: folder + "/" + name))
                } catch {
                    problems.append(error.description)
                }
            }
        }
        catalog = TemplateCatalog(layers: entries)
        self.problems = problems
    }

    /// Reads one template file.
    static func read(_ path: String) throws(TemplateError) -> Template {
        let url = URL(fileURLWithPath: path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TemplateError(file: path, path: "", problem: "cannot read this template file")
        }
        return try Template(json: Array(data), file: url.lastPathComponent, folder: url.deletingLastPathComponent().path)
    }

    /// `--template ID|FILE`: a path when it names a .json file or contains '/', else an id.
    func resolve(_ choice: String?) throws -> Template {
        let choice = choice ?? TemplateCatalog.defaultID
        if choice.hasSuffix(".json") || choice.contains("/") {
            return try Self.read(choice)
        }
        if let entry = catalog.entry(id: choice) { return entry.template }
        let known = catalog.entries.map(\.template.id).joined(separator: ", ")
        throw UsageError.badValue(option: "--template", value: choice, expected: "a known style (\(known)) or a .json file")
    }
}
