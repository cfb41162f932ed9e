/// The program's words in the user's language, through GNU gettext: catalogues compiled from
/// `po/LANG.po` (`FOLDER/LANG/LC_MESSAGES/stampcam.mo`), texts marked with `L`, `Ln` and `Lp`.
/// A text a catalogue lacks stays English. The language is the process's: one per run.
public enum Translation {
    public static let domain = "stampcam"

    /// Reads the catalogues from `folder` (nil: none, so English) and looks texts up in
    /// `languages`, best first (nil or empty: English). Works whether or not the languages'
    /// locales are generated on this machine: gettext is asked through LANGUAGE in C.UTF-8.
    public static func use(languages: [String]?, catalogues folder: String?) {
        let list = (languages ?? []).joined(separator: ":")
        cataloguesFolder.withLock { $0 = folder }
        // Most runs are in English: nothing to change, so nothing global is touched.
        if list.isEmpty && asked.isEmpty { return }
        let usable = !list.isEmpty && folder.map { Gettext.bind(domain: domain, folder: $0) } == true
        state.withLock { $0 = usable ? languages ?? [] : [] }
        Gettext.use(languages: usable ? list : nil)
    }

    /// The languages asked for, best first; empty for English.
    public static var asked: [String] { state.withLock { $0 } }

    /// The language of the catalogue in use (its header's `Language:`), or nil when none was
    /// found for the languages asked: then every text stays English.
    public static var catalogueLanguage: String? {
        guard !asked.isEmpty else { return nil }
        let header = Gettext.text(domain: domain, "")
        let line = header.split(separator: "\n").first { $0.hasPrefix("Language:") }
        let language = line.map { $0.dropFirst("Language:".count).filter { $0 != " " && $0 != "\r" } } ?? ""
        return language.isEmpty ? nil : String(language)
    }

    private static let state = ConditionLock<[String]>([])
    /// The folder of catalogues the run was given.
    private static let cataloguesFolder = ConditionLock<String?>(nil)

    /// The languages with a catalogue in the run's folder (`LANG/LC_MESSAGES/stampcam.mo`), sorted.
    public static var languagesWithCatalogues: [String] {
        guard let root = cataloguesFolder.withLock({ $0 }), let names = try? FileSystem.list(FilePath(root)) else { return [] }
        return names.filter { language($0) == $0 && FileSystem.exists(FilePath(root + "/" + $0 + "/LC_MESSAGES/" + domain + ".mo")) }.sorted()
    }

    /// What `words` says in English (`en`) and each language that has a catalogue, keyed by
    /// language; the run's own language is set again after. gettext's language belongs to the whole process: call this
    /// before other threads translate anything (a server, before it starts).
    public static func inEveryLanguage<Words>(_ words: () -> Words) -> [String: Words] {
        let own = asked, root = cataloguesFolder.withLock { $0 }, variable = Gettext.languageVariable
        // Programs this run starts (`--exec`) inherit LANGUAGE as the run found or set it.
        defer { Gettext.languageVariable = variable }
        use(languages: nil, catalogues: root)
        var table = ["en": words()]
        for language in languagesWithCatalogues {
            use(languages: [language], catalogues: root)
            table[language] = words()
        }
        use(languages: own.isEmpty ? nil : own, catalogues: root)
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

    /// The translation of `text`, or `text` itself.
    public static func text(_ text: String) -> String {
        asked.isEmpty ? text : Gettext.text(domain: domain, text)
    }

    /// The translation of `singular`/`plural` for `count`, as the language counts.
    public static func text(_ singular: String, plural: String, count: Int) -> String {
        asked.isEmpty ? (count == 1 ? singular : plural) : Gettext.text(domain: domain, singular: singular, plural: plural, count: count)
    }

    /// The translation of `text` in `context` (a msgctxt: "label", "month" …), or `text` itself.
    public static func text(_ text: String, context: String) -> String {
        guard !asked.isEmpty else { return text }
        let key = context + "\u{4}" + text
        let translated = Gettext.text(domain: domain, key)
        return translated == key ? text : translated
    }
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
