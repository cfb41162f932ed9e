import Platform

/// The page's words in every language with a catalogue, made once when the server starts, and
/// chosen per request by the browser's languages (`GET /api/words?lang=es-ES,es;q=0.9`, else its
/// Accept-Language).
public struct PageWords: Sendable {
    /// The page's words by the id its elements name (`data-word="retake"`), per language.
    let table: [String: [String: String]]

    /// The words in the run's language only, as English (tests, a server made without a table).
    public static var english: PageWords { PageWords(table: ["en": allWords()]) }

    /// The words in English and every language the run's catalogue folder holds.
    public static func everyLanguage() -> PageWords {
        PageWords(table: Translation.inEveryLanguage(allWords))
    }

    /// The camera page's words and the check page's.
    static func allWords() -> [String: String] { words().merging(checkWords()) { camera, _ in camera } }

    /// The words as the process's language says them; the ids are the pages' (the camera's, the phone's and the lead's).
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
            // TRANSLATORS: a phone's own camera (/phone). {name} and {count} are filled in by the page: keep them as they are.
            "camera-of": Lp("page", "{name}’s camera"),
            "this-camera": Lp("page", "This phone’s camera"),
            "no-live": Lp("page", "This page cannot show the camera live here: the shutter opens the phone’s own camera app."),
            "no-camera": Lp("page", "The camera cannot be opened here"),
            "no-frame": Lp("page", "The camera gave no picture; try again"),
            "no-review": Lp("page", "The stamped photo cannot be shown; retake it"),
            "stamping": Lp("page", "stampcam is stamping the photo…"),
            "gallery": Lp("page", "Gallery"),
            "phone-fields-hint": Lp("page", "These values are this phone’s own; the time is the server’s clock."),
            "install-certificate": Lp("page", "Trust this server on this phone"),
            "server-camera": Lp("page", "The server’s camera"),
            "kept": Lp("page", "No connection: the photo is kept on this phone and sent when stampcam answers"),
            "lost": Lp("page", "The photo did not reach stampcam; take it again"),
            "saved-as": Lp("page", "Saved as {name}"),
            "sent-kept": Lp("page", "Sent a kept photo: {name}"),
            "waits-one": Lp("page", "1 photo waits on this phone for stampcam"),
            "waits-many": Lp("page", "{count} photos wait on this phone for stampcam"),
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
