/// The program's words in the user's language: catalogues compiled by msgfmt from `po/LANG.po`
/// (`FOLDER/LANG/LC_MESSAGES/stampcam.mo`), read once into values (`MessageCatalogue`); texts marked
/// with `L`, `Ln` and `Lp`. A text a catalogue lacks stays English. The run has a language (`run`);
/// a part of it may speak another (`Language.speaking`): nothing here is the process's setting.
public enum Translation {
    public static let domain = "stampcam"

    /// What `use` found: the languages asked for, the run's language, every catalogue in the folder.
    private struct Setting {
        var asked: [String] = []
        var run = Language.english
        var catalogues: [String: MessageCatalogue] = [:]
    }
    private static let setting = ConditionLock(Setting())

    /// Reads the catalogues in `folder` (nil: none, so English) and makes the run speak the first of
    /// `languages` (best first; nil or empty: English) that has one, with the others after it.
    public static func use(languages: [String]?, catalogues folder: String?) {
        let catalogues = folder.map(readCatalogues) ?? [:]
        let asked = languages ?? []
        let found = asked.compactMap { catalogue(for: $0, in: catalogues) }
        setting.withLock { $0 = Setting(asked: asked, run: Language(catalogues: found), catalogues: catalogues) }
    }

    /// Every `LANG/LC_MESSAGES/stampcam.mo` in `folder` that reads, by its folder's name.
    private static func readCatalogues(_ folder: String) -> [String: MessageCatalogue] {
        guard let names = try? FileSystem.list(FilePath(folder)) else { return [:] }
        var catalogues: [String: MessageCatalogue] = [:]
        for name in names where language(name) == name {
            let path = FilePath(folder).appending(FilePath(name)).appending("LC_MESSAGES").appending(FilePath(domain + ".mo"))
            if let bytes = try? FileSystem.read(path, limit: MessageCatalogue.maxSize),
               let catalogue = try? MessageCatalogue(mo: bytes) {
                catalogues[name] = catalogue
            }
        }
        return catalogues
    }

    /// The catalogue gettext would use for `name`: `pt_BR.UTF-8@x` tries pt_BR@x, pt_BR, pt@x, pt.
    private static func catalogue(for name: String, in catalogues: [String: MessageCatalogue]) -> MessageCatalogue? {
        let modifier = name.firstIndex(of: "@").map { String(name[$0...]) } ?? ""
        let base = String(name.prefix { $0 != "." && $0 != "@" })
        let code = String(base.prefix { $0 != "_" })
        for candidate in [base + modifier, base, code + modifier, code] {
            if let found = catalogues[candidate] { return found }
        }
        return nil
    }

    /// The run's language: what `use` chose, English before it is called.
    public static var run: Language { setting.withLock { $0.run } }

    /// The languages asked for, best first; empty for English.
    public static var asked: [String] { setting.withLock { $0.asked } }

    /// The language of the catalogue in use (its header's `Language:`), or nil when none was
    /// found for the languages asked: then every text stays English.
    public static var catalogueLanguage: String? { run.catalogues.first?.language }

    /// The languages with a catalogue in the run's folder (`LANG/LC_MESSAGES/stampcam.mo`), sorted.
    public static var languagesWithCatalogues: [String] { setting.withLock { $0.catalogues.keys.sorted() } }

    /// `name`'s language (`es`, `pt_BR`, `zh` for zh_CN's catalogue …) when the run's folder has its
    /// catalogue; nil otherwise.
    public static func language(named name: String) -> Language? {
        let catalogues = setting.withLock { $0.catalogues }
        if let found = catalogue(for: name, in: catalogues) { return Language(catalogues: [found]) }
        let code = String(name.prefix { $0 != "_" && $0 != "." && $0 != "@" })
        // A bare language (`zh`) takes the first regional catalogue (`zh_CN`).
        return catalogues.keys.sorted().first { $0.hasPrefix(code + "_") }.map { Language(catalogues: [catalogues[$0]!]) }
    }

    /// What `words` says in English (`en`) and each language that has a catalogue, keyed by language.
    public static func inEveryLanguage<Words>(_ words: () -> Words) -> [String: Words] {
        var table = ["en": Language.english.speaking(words)]
        for (name, catalogue) in setting.withLock({ $0.catalogues }) {
            table[name] = Language(catalogues: [catalogue]).speaking(words)
        }
        return table
    }

    /// The languages a run asks for, best first, as gettext would read them: `chosen` (`--lang`,
    /// the config's `lang`) when given, else LANGUAGE, LC_ALL, LC_MESSAGES or LANG. Nil for English
    /// (English asked first, the C and POSIX locales, nothing set, a value that names no language). gettext ignores
    /// LANGUAGE in the C locale, and so does this.
    public static func languages(chosen: String?, environment: [String: String]) -> [String]? {
        let list: [String]
        if let chosen {
            list = language(chosen).map { [$0] } ?? []
        } else {
            let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
            guard let locale, let own = language(locale) else { return nil }
            let preferred = (environment["LANGUAGE"] ?? "").split(separator: ":").compactMap { language(String($0)) }
            list = preferred.isEmpty ? [own] : preferred
        }
        // English first is the program's own words: nothing to look up.
        guard let first = list.first, first != "en", !first.hasPrefix("en_"), !first.hasPrefix("en.") else { return nil }
        return list
    }

    /// `text` as a gettext language name (`zh_CN`, `es`, `pt_BR.UTF-8`, `sr@latin`; a browser's
    /// `zh-CN` becomes `zh_CN`), or nil when it names none: C, POSIX, or anything else, such as
    /// a path (`../x`), which would lead gettext out of the catalogue folder.
    public static func language(_ text: String) -> String? {
        let name = text.replacingFirstHyphen
        guard !name.isEmpty, name.count <= 40, !["C", "POSIX"].contains(name), !name.hasPrefix("C.") else { return nil }
        let codeEnd = name.firstIndex { "_.@".contains($0) } ?? name.endIndex
        let code = name[..<codeEnd], rest = name[codeEnd...]
        guard (2...3).contains(code.count), code.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        guard rest.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-@".contains($0)) }) else { return nil }
        return name
    }

    /// The translation of `text` in the current language, or `text` itself.
    public static func text(_ text: String) -> String { Language.current.text(text) }

    /// The translation of `singular`/`plural` for `count`, as the current language counts.
    public static func text(_ singular: String, plural: String, count: Int) -> String {
        Language.current.text(singular, plural: plural, count: count)
    }

    /// The translation of `text` in `context` (a msgctxt: "label", "month" …), or `text` itself.
    public static func text(_ text: String, context: String) -> String { Language.current.text(text, context: context) }
}

/// `text` in the user's language, with `{1}`, `{2}` … replaced by `values`: the values stay out
/// of the text a translator sees, and a language may put them in another order.
public func L(_ text: String, _ values: any CustomStringConvertible...) -> String {
    Translation.text(text).filled(values)
}

/// The form of `singular`/`plural` for `count` in the user's language, `{1}` … filled as `L`'s.
public func Ln(_ singular: String, _ plural: String, _ count: Int, _ values: any CustomStringConvertible...) -> String {
    Translation.text(singular, plural: plural, count: count).filled(values)
}

/// `text` marked for `make pot` in `context`, and left English: for a table made once (an option's
/// help, a stamp's words), translated where it is shown with `Translation.text(_:context:)`, in the
/// language of that moment. One literal each: xgettext reads no `+`.
public func marked(_ context: String, _ text: String) -> String { text }

/// `text` in `context` (a word that means different things: "By" on a stamp's label), as `L`.
public func Lp(_ context: String, _ text: String) -> String {
    Translation.text(text, context: context)
}

extension String {
    /// One pass, so a value that holds `{2}` (a file name) is never filled in again.
    fileprivate func filled(_ values: [any CustomStringConvertible]) -> String {
        guard !values.isEmpty else { return self }
        var output = "", rest = self[...]
        while let open = rest.firstIndex(of: "{") {
            output += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let number = Int(after[..<close]), values.indices.contains(number - 1) {
                output += values[number - 1].description
                rest = after[after.index(after: close)...]
            } else {
                output += "{"
                rest = after
            }
        }
        return output + rest
    }

    /// `zh-CN` as `zh_CN`; a hyphen in the codeset or modifier (`UTF-8`) stays.
    fileprivate var replacingFirstHyphen: String {
        let end = firstIndex { $0 == "." || $0 == "@" } ?? endIndex
        guard let hyphen = self[..<end].firstIndex(of: "-") else { return self }
        return self[..<hyphen] + "_" + self[index(after: hyphen)...]
    }
}
