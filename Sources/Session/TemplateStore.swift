import Library
import Platform
import Templates

/// Finds and reads templates: built-in (the data folder's templates/), the user's
/// (`$XDG_CONFIG_HOME/stampcam/templates`), and any extra folders; a later one overrides an earlier
/// one with the same id.
public struct TemplateStore: Sendable {
    public let catalog: TemplateCatalog
    /// Templates and folders that could not be read, one line each, for the commands that list or check.
    public let problems: [String]

    /// Where templates are found, in the order a later one overrides an earlier one with the same id.
    public struct Folders: Sendable, Equatable {
        /// The data folder's templates/.
        public var builtIn: String
        /// The user's (`$XDG_CONFIG_HOME/stampcam/templates`); need not exist.
        public var user: String
        /// Folders the user named; each must be readable.
        public var extra: [String]

        public init(builtIn: String, user: String, extra: [String] = []) {
            self.builtIn = builtIn
            self.user = user
            self.extra = extra
        }
    }

    /// The templates in `folders`.
    public init(_ folders: Folders) throws(FileError) {
        try self.init(builtIn: folders.builtIn, user: folders.user, extraFolders: folders.extra)
    }

    /// `TemplateStore(folders).resolve(choice)`, reading only what it must (see the other `resolve`).
    public static func resolve(_ choice: String?, in folders: Folders) throws -> Template {
        try resolve(choice, builtIn: folders.builtIn, user: folders.user, extraFolders: folders.extra)
    }

    /// A folder the user named (`--template-dir`) that cannot be read is an error; a broken template
    /// in a folder is a problem listed with the others (the rest stay usable).
    public init(builtIn: String, user: String, extraFolders: [String]) throws(FileError) {
        let (files, problems) = try Self.files(builtIn: builtIn, user: user, extraFolders: extraFolders)
        var entries: [TemplateCatalog.Entry] = []
        var unread = problems
        for file in files {
            do {
                entries.append(TemplateCatalog.Entry(template: try Self.read(file.path), source: file.source, file: file.path))
            } catch {
                unread.append("\(error)")
            }
        }
        catalog = TemplateCatalog(layers: entries)
        self.problems = unread
    }

    /// `TemplateStore(…).resolve(choice)` without making every template: each file is read only
    /// for its id, and just the chosen one becomes a `Template` (a run stamps with one style).
    public static func resolve(_ choice: String?, builtIn: String, user: String, extraFolders: [String]) throws -> Template {
        let id = choice ?? TemplateCatalog.defaultID
        if id.hasSuffix(".json") || id.contains("/") { return try read(id) }
        // A later file wins: from the last one back, the first that is this style and reads as a
        // template (a broken one is passed over, as the whole store leaves it out). Only a file with
        // the id's text in it, or an escape (which could spell it), is parsed to see.
        let idText = Array(id.utf8)
        for file in try files(builtIn: builtIn, user: user, extraFolders: extraFolders).files.reversed() {
            guard let bytes = try? FileSystem.read(FilePath(file.path), limit: 1 << 20),
                  bytes.contains(UInt8(ascii: "\\")) || bytes.firstRange(of: idText) != nil,
                  let template = try? template(bytes, path: file.path), template.id == id else { continue }
            return template
        }
        // None: the whole store says what there is.
        return try TemplateStore(builtIn: builtIn, user: user, extraFolders: extraFolders).resolve(choice)
    }

    /// The template files of the layers, in the order a later one overrides an earlier one, and
    /// what could not be listed. A folder the user named that cannot be read is an error.
    private static func files(builtIn: String, user: String, extraFolders: [String]) throws(FileError)
        -> (files: [(path: String, source: TemplateCatalog.Source)], problems: [String]) {
        var files: [(path: String, source: TemplateCatalog.Source)] = []
        var problems: [String] = []
        let layers: [(String, TemplateCatalog.Source)] = [(builtIn, .builtIn), (user, .user)] + extraFolders.map { ($0, .folder) }
        for (folder, source) in layers {
            let names: [String]
            do { names = try FileSystem.list(FilePath(folder)) } catch {
                // A missing user folder is normal; the built-in one and those the user named must be there.
                if source == .folder { throw .cannotRead(path: folder, reason: "cannot read this template folder: \(error.reason)") }
                if source == .builtIn { problems.append("\(PathEncoding.display(folder)): cannot read the built-in templates: \(error.reason)") }
                continue
            }
            for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
                files.append((folder + "/" + name, source))
            }
        }
        return (files, problems)
    }

    /// Reads one template file (a regular file of at most 1 MB): a `FileError` when it cannot be
    /// read, a `TemplateError` when it is not a template.
    public static func read(_ path: String) throws -> Template {
        let bytes: [UInt8]
        do { bytes = try FileSystem.read(FilePath(path), limit: 1 << 20) } catch {
            throw FileError.cannotRead(path: path, reason: "cannot read this template: \(Self.reason(error))")
        }
        return try template(bytes, path: path)
    }

    /// The template in `bytes`, read from `path` (its name in messages, its folder for logos).
    private static func template(_ bytes: [UInt8], path: String) throws(TemplateError) -> Template {
        let slash = path.lastIndex(of: "/")
        let file = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        return try Template(json: bytes, file: PathEncoding.display(file), folder: folder)
    }

    private static func reason(_ error: FileSystem.ReadError) -> String {
        switch error {
        case .system(let errno): return errno.reason
        case .notRegular(let kind): return "\(kind), not a template file"
        case .tooLarge(let size, let limit): return "\(size) bytes is more than a template may have (\(limit))"
        }
    }

    /// Why a style choice is not one: what the user typed and what there is.
    public struct UnknownStyle: Error, Sendable {
        public let choice: String
        public let known: [String]
    }

    /// A style by id, or the template file at `choice` (a path when it ends in .json or contains '/').
    public func resolve(_ choice: String?) throws -> Template {
        let choice = choice ?? TemplateCatalog.defaultID
        if choice.hasSuffix(".json") || choice.contains("/") {
            return try Self.read(choice)
        }
        if let entry = catalog.entry(id: choice) { return entry.template }
        throw UnknownStyle(choice: choice, known: catalog.entries.map(\.template.id))
    }
}

import Watermark

extension TemplateStore {
    /// The catalog's styles that pass the one validation (to cycle through while shooting, or for a
    /// contact sheet), and the errors of those left out. `variables` are the names given with --set.
    public func usableStyles(checkingWith watermarker: Watermarker, variables: Set<String>)
        -> (styles: [Template], problems: [TemplateProblem]) {
        var styles: [Template] = []
        var problems: [TemplateProblem] = []
        for entry in catalog.entries {
            let errors = watermarker.validate(entry.template, variables: variables).filter(\.isError)
            if errors.isEmpty { styles.append(entry.template) } else { problems += errors }
        }
        return (styles, problems)
    }

    /// Throws the first error the one validation finds in `template` (a template with errors is
    /// never used); returns its warnings.
    public static func requireValid(_ template: Template, checkingWith watermarker: Watermarker,
                                    variables: Set<String>) throws(TemplateError) -> [TemplateProblem] {
        let problems = watermarker.validate(template, variables: variables)
        if let first = problems.first(where: \.isError) {
            var error = first.error
            let more = problems.filter(\.isError).count - 1
            if more > 0 { error.problem += " (and \(more) more problem\(more > 1 ? "s" : "") in this template; see 'stampcam templates check')" }
            throw error
        }
        return problems
    }
}
