import Testing
@testable import StampWeb

/// Which language the page's words come in for a browser's list of languages (Accept-Language's
/// form). The table is made by hand: making it from the catalogues switches the process's language,
/// which the browser test does in a server of its own (Tests/web/browser_test.py).
struct PageWordsTests {
    static let words = PageWords(table: [
        "en": ["retake": "Retake", "direction": "ltr"], "es": ["retake": "Repetir", "direction": "ltr"],
        "pt_BR": ["retake": "Refazer"], "zh_CN": ["retake": "重拍"], "ar": ["retake": "إعادة التصوير", "direction": "rtl"],
    ])

    @Test("the best language of the list that has words; English for none", arguments: [
        ("es-ES,es;q=0.9", "es"), ("es", "es"), ("es-MX", "es"), ("pt-BR,pt;q=0.9", "pt_BR"), ("pt", "pt_BR"),
        ("zh", "zh_CN"), ("zh-CN", "zh_CN"), ("fr;q=1,es;q=0.5", "es"), ("de,ar;q=0.8,es;q=0.9", "es"),
        ("en-US,es;q=0.9", "en"), ("es;q=0,ar", "ar"), ("xx", "en"), ("", "en"), ("*", "en"),
        ("ES", "es"), ("pt-br", "pt_BR"), ("../es", "en"), ("es;q=abc", "en"), ("es;q=2", "en"), ("<script>,;;;,=,q=1", "en"),
        ("es\u{0}", "en"),
    ])
    func choice(_ list: String, _ expected: String) {
        #expect(Self.words.answer(for: list).language == expected)
    }

    @Test("Spanish words for a Spanish browser; English for one the table lacks")
    func words() {
        #expect(Self.words.answer(for: "es-ES,es;q=0.9").words["retake"] == "Repetir")
        #expect(Self.words.answer(for: "xx").words["retake"] == "Retake")
    }

    @Test("a hostile list: huge, thousands of entries and q-values, junk — English or a language it names, quickly")
    func hostile() {
        #expect(Self.words.answer(for: String(repeating: "a", count: 1 << 20)).language == "en")
        #expect(Self.words.answer(for: String(repeating: "xx;q=0.5,", count: 100_000) + "es").language == "en")
        #expect(Self.words.answer(for: "es" + String(repeating: ";q=0.1", count: 100_000)).language == "es")
        #expect(Self.words.answer(for: String(repeating: ",", count: 100_000)).language == "en")
        #expect(Self.words.answer(for: "\u{FFFD}\u{202E}ar,\u{1F600}").language == "en")
    }
}
