import Foundation
import Imaging
@testable import StampCLI
import Testing
import TestSupport
import Templates
import Values

/// Languages end to end: the catalogues made from po/ by msgfmt, read by the built binary through
/// gettext with LC_ALL unset and locales this machine has not generated (only C and C.UTF-8 are,
/// on a fresh Debian or in a container).
@Suite struct LanguageTests {
    static let po = TestFiles.packageRoot + "/po"
    /// The shipped languages: po/'s catalogues.
    static let languages = ((try? FileManager.default.contentsOfDirectory(atPath: po)) ?? [])
        .filter { $0.hasSuffix(".po") }.map { String($0.dropLast(3)) }.sorted()

    /// po/LANG.po compiled into a folder of this test run's (what `make locales` makes in .build/locale).
    static func catalogues(editing edit: (String, String) -> String = { $1 }) throws -> String {
        let folder = try TestFiles.temporaryFolder("locale")
        for language in languages {
            let source = folder + "/\(language).po"
            try edit(language, try String(contentsOfFile: po + "/\(language).po", encoding: .utf8)).write(toFile: source, atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(atPath: folder + "/\(language)/LC_MESSAGES", withIntermediateDirectories: true)
            let compiled = try CLI.shell("msgfmt -c --check -o \(CLI.quoted(folder + "/\(language)/LC_MESSAGES/stampcam.mo")) \(CLI.quoted(source))")
            #expect(compiled.code == 0, "msgfmt \(language).po: \(compiled.err)")
        }
        return folder
    }

    /// Runs the binary with the given language variables and nothing else of the kind (LC_ALL and
    /// LANGUAGE unset unless given).
    static func run(_ arguments: [String], _ variables: String, catalogues: String) throws -> CLIResult {
        try CLI.shell("env -u LC_ALL -u LC_MESSAGES -u LANGUAGE -u LANG \(variables) STAMPCAM_LOCALEDIR=\(CLI.quoted(catalogues)) STAMPCAM_DATA=\(CLI.quoted(TestFiles.packageRoot)) "
            + ([CLI.binary] + arguments).map(CLI.quoted).joined(separator: " "))
    }

    /// A template file of one block of `lines`.
    static func template(_ lines: [String], in folder: String, name: String) throws -> String {
        let quoted = lines.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(separator: ", ")
        let file = folder + "/\(name).json"
        try ##"{"version": 1, "id": "\##(name)", "blocks": [{"anchor": "bottom-left", "font": {"size": 0.06}, "box": {"color": "#000000"}, "lines": [\##(quoted)]}]}"##
            .write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Stamps `photo` with `lines` as `variables` (and `extra` arguments) say; the stamped pixels.
    static func stamp(_ photo: String, _ lines: [String], _ variables: String, catalogues: String, extra: [String] = []) throws -> (Bitmap, CLIResult) {
        let folder = try TestFiles.temporaryFolder("language")
        let file = try template(lines, in: folder, name: "words")
        let result = try run(["apply", photo, "-o", folder + "/out", "-t", file, "--user", "Li Wei", "--time", "2026-11-29T14:03:12+08:00"] + extra,
                             variables, catalogues: catalogues)
        #expect(result.code == 0, "\(result.err)")
        let stamped = try Photo(jpeg: try TestFiles.bytes(folder + "/out/" + (photo as NSString).lastPathComponent), options: LoadOptions(maxSize: 0))
        return (stamped.bitmap, result)
    }

    static func photo() throws -> String {
        try Fixtures.site.write(to: try TestFiles.temporaryFolder("in"))
    }

    @Test("LANG=zh_CN.UTF-8, not generated here: Chinese labels on the stamp and Chinese messages")
    func chineseFromLANG() throws {
        let catalogues = try Self.catalogues(), photo = try Self.photo()
        let (labelled, result) = try Self.stamp(photo, ["{label:user} {user}"], "LANG=zh_CN.UTF-8", catalogues: catalogues)
        // A literal "拍摄人" stamped in English draws the same pixels: the label is Chinese.
        let (literal, _) = try Self.stamp(photo, ["拍摄人 {user}"], "LANG=C", catalogues: catalogues)
        let (english, englishRun) = try Self.stamp(photo, ["{label:user} {user}"], "LANG=C", catalogues: catalogues)
        #expect(PixelCompare.meanDifference(labelled, literal, x: 0..<labelled.width, y: 0..<labelled.height) < 0.01)
        #expect(PixelCompare.meanDifference(labelled, english, x: 0..<labelled.width, y: 0..<labelled.height) > 0.5)
        #expect(result.err.last?.contains("1 张完成，0 张跳过，0 张失败") == true, "\(result.err)")
        #expect(englishRun.err.last?.contains("1 done, 0 skipped, 0 failed") == true, "\(englishRun.err)")
    }

    @Test("--lang es on a machine without an es locale: Spanish messages and {date:long}")
    func spanishWithoutLocale() throws {
        let catalogues = try Self.catalogues(), photo = try Self.photo()
        let (long, result) = try Self.stamp(photo, ["{date:long}"], "LANG=C", catalogues: catalogues, extra: ["--lang", "es"])
        let (literal, _) = try Self.stamp(photo, ["29 de noviembre de 2026"], "LANG=C", catalogues: catalogues)
        #expect(PixelCompare.meanDifference(long, literal, x: 0..<long.width, y: 0..<long.height) < 0.01)
        #expect(result.err.last?.contains("1 hechas, 0 omitidas, 0 fallidas") == true, "\(result.err)")
        // Before the command too, and a config's `lang` or LANGUAGE alone in the C locale do not override it.
        let help = try Self.run(["--lang", "es", "apply", "--help"], "LANG=C LANGUAGE=de", catalogues: catalogues)
        #expect(help.out.first?.hasPrefix("uso: stampcam apply") == true, "\(help.out.prefix(1))")
        let c = try Self.run(["apply", "--help"], "LANG=C LANGUAGE=de", catalogues: catalogues)
        #expect(c.out.first?.hasPrefix("usage: stampcam apply") == true, "\(c.out.prefix(1))")
    }

    @Test("a text a catalogue lacks stays English; the rest is translated")
    func untranslatedFallsBack() throws {
        let catalogues = try Self.catalogues { language, text in
            language == "es" ? text.replacingOccurrences(of: "msgid \"options:\"\nmsgstr \"opciones:\"", with: "msgid \"options:\"\nmsgstr \"\"") : text
        }
        let help = try Self.run(["apply", "--help", "--lang", "es"], "", catalogues: catalogues)
        #expect(help.out.first?.hasPrefix("uso: stampcam apply") == true, "\(help.out.prefix(1))")
        #expect(help.out.contains("options:") && !help.out.contains("opciones:"))
    }

    @Test("--lang C or POSIX (and the config's) is English; a language we do not ship says so in one line")
    func localeNamesAndUnknown() throws {
        let catalogues = try Self.catalogues(), config = try TestFiles.temporaryFolder("config")
        for name in ["C", "POSIX", "C.UTF-8", "en"] {
            let help = try Self.run(["apply", "--help", "--lang", name], "LANG=C LANGUAGE=de", catalogues: catalogues)
            #expect(help.code == 0 && help.out.first?.hasPrefix("usage: stampcam apply") == true && help.err.isEmpty, "\(name): \(help.err)")
        }
        try FileManager.default.createDirectory(atPath: config + "/stampcam", withIntermediateDirectories: true)
        try #"{"lang": "C"}"#.write(toFile: config + "/stampcam/config.json", atomically: true, encoding: .utf8)
        let fromConfig = try Self.run(["apply", "--help"], "LANG=fr_FR.UTF-8 XDG_CONFIG_HOME=\(CLI.quoted(config))", catalogues: catalogues)
        #expect(fromConfig.code == 0 && fromConfig.out.first?.hasPrefix("usage: stampcam apply") == true && fromConfig.err.isEmpty,
                "\(fromConfig.out.prefix(1)) \(fromConfig.err)")
        // A typo (Spanish is es): English, and one line saying why and which there are.
        let typo = try Self.run(["apply", "--help", "--lang", "sp"], "LANG=C", catalogues: catalogues)
        #expect(typo.code == 0 && typo.out.first?.hasPrefix("usage: stampcam apply") == true)
        #expect(typo.err == ["stampcam: note: there is no catalogue for the language 'sp' (there are: ar, de, en, es, fr, he, hi, ja, pt_BR, ru, vi, zh_CN): the words stay English"],
                "\(typo.err)")
        // A regional variant of a shipped language is that language, without a note.
        let mexico = try Self.run(["apply", "--help", "--lang", "es_MX"], "LANG=C", catalogues: catalogues)
        #expect(mexico.out.first?.hasPrefix("uso: stampcam apply") == true && mexico.err.isEmpty, "\(mexico.out.prefix(1)) \(mexico.err)")
    }

    @Test("a language that names a path, or none we ship, is refused or stays English")
    func hostileLanguage() throws {
        let catalogues = try Self.catalogues()
        let path = try Self.run(["apply", "--help", "--lang", "../../tmp/x"], "", catalogues: catalogues)
        #expect(path.code == 64 && path.err.first?.contains("--lang") == true, "\(path.err)")
        let unknown = try Self.run(["apply", "--help"], "LANG=xx_YY.UTF-8", catalogues: catalogues)
        #expect(unknown.code == 0 && unknown.out.first?.hasPrefix("usage:") == true)
        // No catalogue for the language (or none at all): every text in English, the batch done.
        let photo = try Self.photo(), out = try TestFiles.temporaryFolder("none")
        let none = try Self.run(["apply", photo, "-o", out, "--user", "Li Wei"], "LANG=zh_CN.UTF-8", catalogues: out + "/missing")
        #expect(none.code == 0 && none.err.last?.contains("1 done, 0 skipped, 0 failed") == true, "\(none.err)")
        let plural = try Self.run(["doctor"], "LANG=zh_CN.UTF-8", catalogues: out + "/missing")
        #expect(plural.out.contains { $0.contains("warning") && $0.contains("no catalogue for zh_CN.UTF-8") }, "\(plural.out)")
        // English asked first is English, with no warning from doctor; LANGUAGE's list is read in order.
        let english = try Self.run(["doctor"], "LANG=en_US.UTF-8 LANGUAGE=en:fr", catalogues: catalogues)
        #expect(english.out.contains { $0.hasPrefix("ok       language      English") }, "\(english.out)")
        let french = try Self.run(["apply", "--help"], "LANG=en_US.UTF-8 LANGUAGE=fr:de", catalogues: catalogues)
        #expect(french.out.first?.hasPrefix("utilisation : stampcam apply") == true, "\(french.out.prefix(1))")
    }

    /// Option and command texts a language rightly writes as English does (none so far: a name such
    /// as `--tls-key` or `PEM` sits inside a translated sentence).
    static let sameInEnglish: [String: Set<String>] = [:]

    @Test("--help of every command, and the command list, in each shipped language: no English summary, option description or note left",
          arguments: LanguageTests.languages)
    func helpTranslated(_ language: String) throws {
        let catalogues = try Self.catalogues()
        let overview = try Self.run(["--lang", language, "--help"], "LANG=C", catalogues: catalogues).out.joined(separator: "\n")
        let summaries = StampCLI.commands.map(\.summary).filter { overview.contains($0) && Self.sameInEnglish[language]?.contains($0) != true }
        #expect(summaries.isEmpty, "\(language) --help: \(summaries)")
        for command in StampCLI.commands {
            let help = try Self.run(["--lang", language, command.name, "--help"], "LANG=C", catalogues: catalogues)
            let text = help.out.joined(separator: "\n")
            let left = Self.englishTexts(command).filter { text.contains($0) && Self.sameInEnglish[language]?.contains($0) != true }
            #expect(help.code == 0 && left.isEmpty, "\(language) \(command.name) --help: \(left)")
        }
    }

    @Test("--help in English (C, --lang en over a German LANG) is the tables' own words")
    func helpInEnglish() throws {
        let catalogues = try Self.catalogues()
        for command in StampCLI.commands {
            let english = try Self.run([command.name, "--help"], "LANG=C", catalogues: catalogues)
            let asked = try Self.run([command.name, "--help", "--lang", "en"], "LANG=de_DE.UTF-8", catalogues: catalogues)
            let text = english.out.joined(separator: "\n")
            #expect(Self.englishTexts(command).allSatisfy(text.contains) && asked.out == english.out, "\(command.name) --help in English")
        }
    }

    /// What the command's table says in English: its summary, its notes' heading and actions, each option's description.
    static func englishTexts(_ command: CommandSpec) -> [String] {
        [command.summary] + (command.notes.map { [$0.heading] + $0.keys.map(\.action) } ?? []) + command.options.map(\.help)
    }

    @Test("check-translations.sh: every shipped catalogue has every text of po/stampcam.pot, translated; one fuzzy, untranslated or missing text fails it")
    func cataloguesComplete() throws {
        let shippedLanguages = ["ar", "de", "es", "fr", "he", "hi", "ja", "pt_BR", "ru", "vi", "zh_CN"]
        #expect(shippedLanguages.allSatisfy(Self.languages.contains), "\(Self.languages)")
        let script = CLI.quoted(TestFiles.packageRoot + "/Tests/lib/check-translations.sh")
        let shipped = try CLI.shell("\(script) \(CLI.quoted(Self.po))")
        #expect(shipped.code == 0, "\(shipped.out) \(shipped.err)")
        // A copy with one text untranslated, one fuzzy, one gone: each named, and the check fails.
        let folder = try TestFiles.temporaryFolder("po")
        for file in TestFiles.files(in: Self.po) {
            var text = try String(contentsOfFile: Self.po + "/" + file, encoding: .utf8)
            if file == "ru.po" {
                text = text.replacingOccurrences(of: "msgstr \"Фотоотчёт\"", with: "msgstr \"\"")
                    .replacingOccurrences(of: "msgctxt \"report\"\nmsgid \"Signature\"", with: "#, fuzzy\nmsgctxt \"report\"\nmsgid \"Signature\"")
            }
            if file == "hi.po" { text = text.replacingOccurrences(of: "msgid \"usage:\"\nmsgstr \"उपयोग:\"\n", with: "") }
            try text.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
        }
        let broken = try CLI.shell("\(script) \(CLI.quoted(folder))")
        #expect(broken.code == 1)
        #expect(broken.out.contains { $0.contains("/ru.po: ") && $0.hasSuffix(" translated messages, 1 fuzzy translation, 1 untranslated message.") },
                "\(broken.out)")
        #expect(broken.out.contains("  untranslated: \"Photo report\"") && broken.out.contains("  fuzzy: \"Signature\""), "\(broken.out)")
        #expect(broken.out.contains { $0.hasSuffix("hi.po lacks texts of stampcam.pot (make pot merges them):") }, "\(broken.out)")
        #expect(!broken.out.contains { $0.contains("de.po") }, "\(broken.out)")
    }

    @Test("po/stampcam.pot holds every text the sources mark (make pot)")
    func templateIsCurrent() throws {
        let folder = try TestFiles.temporaryFolder("pot")
        let root = CLI.quoted(TestFiles.packageRoot)
        let extracted = try CLI.shell("cd \(root) && make -s pot POT=\(CLI.quoted(folder + "/stampcam.pot"))")
        #expect(extracted.code == 0, "\(extracted.err)")
        let same = try CLI.shell("msgcmp --use-untranslated \(CLI.quoted(folder + "/stampcam.pot")) \(root)/po/stampcam.pot")
        #expect(same.code == 0, "po/stampcam.pot is not current (make pot): \(same.err)")
    }

    @Test("{date:long} and {label:user} in each language, from the catalogues' own words")
    func longDates() throws {
        let expected = ["zh_CN": "拍摄人 2026年11月29日 星期日", "es": "Usuario 29 de noviembre de 2026",
                        "pt_BR": "Usuário 29 de novembro de 2026", "fr": "Utilisateur 29 novembre 2026",
                        "de": "Benutzer 29. November 2026", "ar": "المستخدم 29 نوفمبر 2026", "ja": "撮影者 2026年11月29日 日曜日",
                        "ru": "Автор 29 ноября 2026 г.", "hi": "फ़ोटोग्राफ़र 29 नवंबर 2026", "vi": "Người chụp 29 tháng 11, 2026",
                        "he": "צלם 29 בנובמבר 2026"]
        let text = try TextTemplate("{label:user} {date:long}")
        for language in Self.languages {
            var fields = Fields(time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00"))
            fields.words = StampWords.translated(try Catalogue.translator(language))
            #expect(text.render(fields, escape: { $0 }) == expected[language], "\(language)")
            #expect(fields.words.rightToLeft == ["ar", "he"].contains(language), "\(language)")
        }
        #expect(text.render(Fields(time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00")), escape: { $0 }) == "User 29 November 2026")
    }

    @Test("every language's labels, dates and marks print: no character without a glyph (CJK, Arabic, Hebrew, Devanagari)")
    func everyWordPrints() throws {
        let folder = try TestFiles.temporaryFolder("glyphs")
        var lines: [String] = []
        for language in Self.languages {
            // The words with a context, but --help's (never on a stamp, and with `<` in them).
            let words = try Catalogue.translations(language)
                .filter { $0.key.contains("\u{4}") && !$0.key.hasPrefix("option\u{4}") && !$0.key.hasPrefix("command\u{4}") }.values.sorted()
            lines.append(words.joined(separator: " ").replacingOccurrences(of: "%", with: "").replacingOccurrences(of: "{", with: "{{")
                .replacingOccurrences(of: "}", with: "}}"))
        }
        let file = try Self.template(lines.map { String($0.prefix(900)) }, in: folder, name: "glyphs")
        let checked = CLI.run(["templates", "check", file])
        #expect(checked.code == 0 && checked.err.isEmpty, "\(checked.err)")
    }
}
