/// The templates a user can choose from, in cycle order (the order next/previous steps through).
/// Later layers override earlier ones by id: built-in, then the user's folder, then `--template-dir`.
public struct TemplateCatalog: Sendable {
    public enum Source: String, Sendable { case builtIn = "built-in", user, folder = "template-dir", file }

    public struct Entry: Sendable {
        public var template: Template
        public var source: Source
        public var file: String

        public init(template: Template, source: Source, file: String) {
            self.template = template
            self.source = source
            self.file = file
        }
    }

    public static let defaultID = "classic"

    /// Cycle order: by `order`, then id.
    public let entries: [Entry]

    public init(layers: [Entry]) {
        var byID: [String: Entry] = [:]
        for entry in layers { byID[entry.template.id] = entry }
        entries = byID.values.sorted {
            ($0.template.order, $0.template.id) < ($1.template.order, $1.template.id)
        }
    }

    public func entry(id: String) -> Entry? { entries.first { $0.template.id == id } }

    /// The style after `id` in the cycle, wrapping around; `step` -1 goes back.
    public func cycle(from id: String, step: Int) -> Entry? {
        guard !entries.isEmpty else { return nil }
        let index = entries.firstIndex { $0.template.id == id } ?? 0
        let count = entries.count
        return entries[((index + step) % count + count) % count]
    }
}
