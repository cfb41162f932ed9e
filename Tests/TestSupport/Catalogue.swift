/// A translation catalogue as written in po/LANG.po, read for tests: the translations by msgid,
/// with a msgctxt before it and "\u{4}" between (as gettext keys them). Only what our catalogues
/// use: quoted strings, continued on following lines, with `\"` inside.
public enum Catalogue {
    public static func translations(_ language: String) throws -> [String: String] {
        var table: [String: String] = [:]
        var context: String?, id = "", string = "", field = ""
        func flush() {
            if field == "msgstr" { table[(context.map { $0 + "\u{4}" } ?? "") + id] = string }
            context = nil; id = ""; string = ""; field = ""
        }
        func quoted(_ line: Substring) -> String {
            guard let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\""), open < close else { return "" }
            return String(line[line.index(after: open)..<close]).replacing("\\\"", with: "\"")
        }
        let text = String(decoding: try TestFiles.bytes(TestFiles.packageRoot + "/po/\(language).po"), as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("msgctxt ") {
                flush()
                context = quoted(line)
                field = "msgctxt"
            } else if line.hasPrefix("msgid ") {
                if field != "msgctxt" { flush() }
                id = quoted(line)
                field = "msgid"
            } else if line.hasPrefix("msgstr ") {
                string = quoted(line)
                field = "msgstr"
            } else if line.hasPrefix("\"") {
                switch field {
                case "msgctxt": context = (context ?? "") + quoted(line)
                case "msgid": id += quoted(line)
                case "msgstr": string += quoted(line)
                default: break
                }
            }
        }
        flush()
        return table
    }

    /// `word` in `context` as `language`'s catalogue has it, or `word` when it has none.
    public static func translator(_ language: String) throws -> (_ word: String, _ context: String) -> String {
        let table = try translations(language)
        return { word, context in table[context + "\u{4}" + word].flatMap { $0.isEmpty ? nil : $0 } ?? word }
    }
}
