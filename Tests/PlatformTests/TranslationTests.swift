import Platform
import Testing

/// Which languages a run asks gettext for; the lookups themselves are tested end to end (LanguageTests).
struct TranslationTests {
    @Test("--lang wins; else LANGUAGE when the locale is not C; else LC_ALL, LC_MESSAGES, LANG", arguments: [
        (nil, ["LANG": "zh_CN.UTF-8"], ["zh_CN.UTF-8"]),
        (nil, ["LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"], ["fr_FR.UTF-8"]),
        (nil, ["LANG": "de_DE.UTF-8", "LC_ALL": "es_ES.UTF-8", "LANGUAGE": "pt_BR:fr"], ["pt_BR", "fr"]),
        (nil, ["LANG": "C", "LANGUAGE": "fr"], nil),
        (nil, ["LANG": "C.UTF-8", "LANGUAGE": "fr"], nil),
        (nil, ["LANG": "en_US.UTF-8"], nil),
        (nil, ["LANG": "de_DE.UTF-8", "LANGUAGE": "en:de"], nil),
        (nil, [:], nil),
        ("es", ["LANG": "C", "LANGUAGE": "de"], ["es"]),
        ("zh-CN", [:], ["zh_CN"]),
        ("en", ["LANG": "fr_FR.UTF-8"], nil),
    ] as [(String?, [String: String], [String]?)])
    func languages(_ chosen: String?, _ environment: [String: String], _ expected: [String]?) {
        #expect(Translation.languages(chosen: chosen, environment: environment) == expected)
    }

    @Test("a language name is a language name: never a path or markup", arguments: [
        ("zh_CN", "zh_CN"), ("pt-BR", "pt_BR"), ("zh_CN.UTF-8", "zh_CN.UTF-8"), ("sr@latin", "sr@latin"),
        ("../x", nil), ("es/../../etc", nil), ("", nil), ("C", nil), ("POSIX", nil), ("x", nil), ("<b>", nil),
        ("es_ES;rm -rf", nil), (String(repeating: "a", count: 100), nil),
    ] as [(String, String?)])
    func names(_ text: String, _ expected: String?) {
        #expect(Translation.language(text) == expected)
    }

    @Test("without a language L is the text itself, its {1} … filled once")
    func english() {
        Translation.use(languages: nil, catalogues: nil)
        #expect(L("{1} of {2}", "a{2}", 3) == "a{2} of 3")
        #expect(L("{3} stays", 1) == "{3} stays")
        #expect(Ln("{1} photo", "{1} photos", 1, 1) == "1 photo" && Ln("{1} photo", "{1} photos", 2, 2) == "2 photos")
        #expect(Lp("label", "User") == "User")
    }
}
