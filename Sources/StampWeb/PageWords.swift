import Platform

/// The page's words in every language with a catalogue, made once before the server's threads
/// exist (gettext's language is the whole process's), and chosen per request by the browser's
/// languages (`GET /api/words?lang=es-ES,es;q=0.9`, else its Accept-Language).
public struct PageWords: Sendable {
    /// The page's words by the id its elements name (`data-word="retake"`), per language.
    let table: [String: [String: String]]

    /// The words in the run's language only, as English (tests, a server made without a table).
    public static var english: PageWords { PageWords(table: ["en": words()]) }

    /// The words in English and every language the run's catalogue folder holds. Switches the
    /// process's language and sets it back: call it before any other thread translates.
    public static func everyLanguage() -> PageWords {
        PageWords(table: Translation.inEveryLanguage(words))
    }

    /// The words as the process's language says them; the ids are the pages' (the camera's and the lead's).
    static func words() -> [String: String] {
        cameraWords().merging(leadWords()) { camera, _ in camera }
    }

    static func cameraWords() -> [String: String] {
        [
            "camera": Lp("page", "Camera"),
            "fields": Lp("page", "Fields"),
            "take-over": Lp("page", "Take over"),
            "offline": Lp("page", "Connection to stampcam lost; trying again…"),
            "zoom": Lp("page", "Zoom"),
            "retake": Lp("page", "Retake"),
            "use": Lp("page", "Use"),
            "live": Lp("page", "Live"),
            "take-photo": Lp("page", "Take photo"),
            "close": Lp("page", "Close"),
            "save-copy": Lp("page", "Save a copy"),
            "on-the-stamp": Lp("page", "On the stamp"),
            "who": Lp("page", "Who"),
            "project": Lp("page", "Project"),
            "where": Lp("page", "Where"),
            "note": Lp("page", "Note"),
            "fields-hint": Lp("page", "The live picture shows changes at once; they stay for this session."),
            "done": Lp("page", "Done"),
            "taking": Lp("page", "Taking the photo…"),
            "saving": Lp("page", "Saving…"),
            "review": Lp("page", "Use this photo, or retake it"),
            // TRANSLATORS: the way the page's text runs: "ltr" (left to right) or "rtl"; nothing else.
            "direction": Lp("page", "ltr"),
        ]
    }

    /// The language to answer in for a list of languages (`es-ES,es;q=0.9,en;q=0.8`: the
    /// Accept-Language form; `q=0` refuses): the best with a table here, matched exactly
    /// (`pt-BR` → `pt_BR`) or by its first part (`zh` → `zh_CN`, `es-MX` → `es`). Nil for English,
    /// which is also the answer to a list with nothing usable.
    func language(for list: String) -> String? {
        var asked: [(name: String, weight: Double, order: Int)] = []
        // A header is short; a longer one is cut, and only its first entries count.
        for (order, entry) in list.prefix(1000).split(separator: ",").prefix(50).enumerated() {
            let parts = entry.split(separator: ";")
            guard let first = parts.first else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace }
                if pair.count == 2, pair[0] == "q" { weight = Double(pair[1]).flatMap { (0...1).contains($0) ? $0 : nil } ?? 0 }
            }
            let name = String(first.trimmingWhitespace)
            if weight > 0, let language = Translation.language(name) { asked.append((language, weight, order)) }
        }
        asked.sort { $0.weight != $1.weight ? $0.weight > $1.weight : $0.order < $1.order }
        for (name, _, _) in asked {
            // Tags are case-insensitive (`ES`, `pt-br`); the table's keys are gettext's (`es`, `pt_BR`).
            let code = String(name.prefix { $0 != "_" && $0 != "." && $0 != "@" }).lowercased()
            if code == "en" { return nil }
            if table[name] != nil { return name }
            if table[code] != nil { return code }
            if let regional = table.keys.sorted().first(where: { $0.hasPrefix(code + "_") }) { return regional }
        }
        return nil
    }

    /// The words for `list` (as `language(for:)` reads it) and the language they are in.
    func answer(for list: String) -> (language: String, words: [String: String]) {
        if let language = language(for: list), let words = table[language] { return (language, words) }
        return ("en", table["en"] ?? [:])
    }
}
