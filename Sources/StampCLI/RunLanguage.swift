import Platform
import Values

/// The language of a run, chosen before anything is printed: `--lang`, else the config's `lang`,
/// else the environment as gettext reads it (LANGUAGE, LC_ALL, LC_MESSAGES, LANG). It need not be
/// a locale generated on this machine: the catalogues are read whatever `locale -a` says.
enum RunLanguage {
    static let option = Option<String>("lang", value: "LANG",
                                       help: marked("option", "the language of labels, dates, messages and reports: ar, de, es, fr, he, hi, ja, pt_BR, ru, vi, zh_CN, en (default: LANG)")) {
        (text) throws(UsageError) in
        // C and POSIX are the locales of the program's own words: English.
        if Self.isEnglishLocale(text) { return "en" }
        guard let language = Translation.language(text) else {
            throw .badValue(option: "--lang", value: text, expected: "a language such as ar, de, es, fr, he, hi, ja, pt_BR, ru, vi, zh_CN or en")
        }
        return language
    }

    /// Uses the language `arguments` (a command's, after its name), the config `file` or
    /// `environment` ask for, with the catalogues of `resources`. Returns a note when the language
    /// asked for by name has no catalogue, so the run is in English.
    static func choose(_ arguments: [String], configFile: String, environment: [String: String],
                       resources: Resources?) throws(UsageError) -> String? {
        var chosen: String?
        if let text = given(arguments) {
            chosen = try option.convert(text)
        } else if case .string(let text)? = try? Config.settings(configFile)["lang"] {
            chosen = try option.convert(text)
        }
        let languages = Translation.languages(chosen: chosen, environment: environment)
        Translation.use(languages: languages, catalogues: resources?.catalogues(environment: environment))
        guard let chosen, languages != nil, Translation.catalogueLanguage == nil else { return nil }
        let known = (["en"] + Translation.languagesWithCatalogues).sorted().joined(separator: ", ")
        return "there is no catalogue for the language '\(chosen)' (there are: \(known)): the words stay English"
    }

    private static func isEnglishLocale(_ text: String) -> Bool {
        ["C", "POSIX"].contains(text) || text.hasPrefix("C.")
    }

    /// The value of the last `--lang` before a `--`.
    private static func given(_ arguments: [String]) -> String? {
        var value: String?
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let argument = arguments[index]
            index += 1
            if argument == "--lang", index < arguments.count {
                value = arguments[index]
                index += 1
            } else if argument.hasPrefix("--lang=") {
                value = String(argument.dropFirst("--lang=".count))
            }
        }
        return value
    }
}
