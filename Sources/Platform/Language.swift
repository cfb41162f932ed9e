/// A language to speak in: its catalogues, best first (gettext's LANGUAGE list), or none for English.
/// A value: a command, a report, a web request or a stamp each may use its own in one process.
/// `L`, `Ln` and `Lp` speak `Language.current`: the one a caller scoped (`speaking`), else the run's.
public struct Language: Sendable, Equatable {
    /// The catalogues looked in, best first; empty for English.
    public let catalogues: [MessageCatalogue]

    public static let english = Language(catalogues: [])

    public init(catalogues: [MessageCatalogue]) {
        self.catalogues = catalogues
    }

    public static func == (a: Language, b: Language) -> Bool { a.code == b.code && a.catalogues.count == b.catalogues.count }

    /// The language's name as gettext writes it (`pt_BR`), `en` for English.
    public var code: String { catalogues.first?.language ?? "en" }

    /// Whether it is written right to left (a catalogue says so for its "text direction").
    public var rightToLeft: Bool { text("ltr", context: "text direction") == "rtl" }

    /// The translation of `text`, or `text` itself.
    public func text(_ text: String) -> String {
        catalogues.lazy.compactMap { $0.text(text) }.first ?? text
    }

    /// The translation of `text` in `context` (a msgctxt: "label", "month" …), or `text` itself.
    public func text(_ text: String, context: String) -> String {
        catalogues.lazy.compactMap { $0.text(text, context: context) }.first ?? text
    }

    /// The form of `singular`/`plural` for `count`, as the language counts.
    public func text(_ singular: String, plural: String, count: Int) -> String {
        catalogues.lazy.compactMap { $0.text(singular, count: count) }.first ?? (count == 1 ? singular : plural)
    }

    /// The language `L`, `Ln` and `Lp` speak on this thread: the one `speaking` scoped, else the run's.
    public static var current: Language { scoped ?? Translation.run }

    @TaskLocal private static var scoped: Language?

    /// Runs `body` with `L`, `Ln` and `Lp` speaking this language (a web request's, a report's).
    public func speaking<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$scoped.withValue(self, operation: body)
    }
}
