import Foundation
import Testing
import TestSupport

/// `report --lang`: the whole report in a client's language — every heading and label, the page
/// numbers, the sign-off block, the months of the cover's dates — read back with pdftotext, with
/// no English word of the report's own left.
@Suite struct ReportLanguageTests {
    /// Every word of the report's own texts (context "report", the page numbers, the footer, the
    /// months), as English writes them, but for those `language` writes the same (German's
    /// "November"): none of these may be left in its report.
    static func englishWords(but language: String? = nil) throws -> Set<String> {
        let table = try Catalogue.translations(language ?? "de")
        let keys = table.keys.filter { $0.hasPrefix("report\u{4}") || $0.hasPrefix("month\u{4}") }
            + ["Page {1} of {2}", "Generated {1} by {2}", "Photo report: {1}"]
        func words(_ texts: [String]) -> Set<String> {
            Set(texts.flatMap { $0.split { !$0.isLetter } }.map(String.init).filter { $0.count >= 3 })
        }
        let english = words(keys.map { String($0.split(separator: "\u{4}").last ?? "") })
        return language == nil ? english : english.subtracting(words(keys.compactMap { table[$0] }))
    }

    /// The English words `text` holds, as whole words.
    static func english(in text: String, words: Set<String>) -> [String] {
        Set(text.split { !$0.isLetter }.map(String.init)).intersection(words).sorted()
    }

    /// A report of the crafted catalog's photos in Paris (a plan: three with a position), signed
    /// off by `signer`, made by the binary with the catalogues of po/ and `arguments`.
    static func report(_ arguments: [String], signer: String, variables: String = "LANG=C") throws -> (text: [String], result: CLIResult) {
        let catalogues = try LanguageTests.catalogues()
        let (catalog, out) = try LogCommandTests.crafted()
        let pdf = out + "/../report.pdf"
        let result = try LanguageTests.run(["report", "--catalog", catalog, "-o", pdf, "--until", "2026-11-26", "--sign-off", signer]
            + arguments, variables, catalogues: catalogues)
        #expect(result.code == 0, "\(result.err)")
        let text = try ExternalTool.run("pdftotext", ["-layout", pdf, "-"])
        #expect(text.status == 0, "\(text.err)")
        return (text.out.split(separator: "\u{0C}").map(String.init), result)
    }

    @Test("an English report holds the words the check looks for: it can fail")
    func englishReport() throws {
        let (pages, _) = try Self.report([], signer: "Wang Fang, Client")
        let found = Self.english(in: pages.joined(), words: try Self.englishWords())
        for word in ["Photo", "report", "Index", "Period", "Page", "Generated", "Location", "plan", "Signature", "Date",
                     "November", "Coordinates", "File", "undersigned"] {
            #expect(found.contains(word), "\(word) not in the English report: \(found)")
        }
    }

    @Test("report --lang LANG: no English word of the report's own in ru, he, hi, zh_CN, de", arguments: [
        ("ru", "Иван Петров, прораб"), ("he", "יוסי כהן, מנהל עבודה"), ("hi", "राजेश कुमार, साइट प्रबंधक"),
        ("zh_CN", "王芳, 现场经理"), ("de", "Jonas Weber, Bauleiter"),
    ])
    func noEnglishLeft(language: String, signer: String) throws {
        let (pages, result) = try Self.report(["--lang", language], signer: signer)
        #expect(pages.count == 6, "the cover, the index, the plan, two pages of photos, the sign-off: \(pages.count) pages")
        let left = Self.english(in: pages.joined(), words: try Self.englishWords(but: language))
        #expect(left.isEmpty, "\(language): English left in the report: \(left)")
        // The run's lines speak it too.
        let summary = try #require(result.err.first { $0.hasSuffix(" MB") || $0.contains("report.pdf: ") }, "\(result.err)")
        #expect(Self.english(in: summary, words: ["pages", "photos"]).isEmpty, "\(summary)")
    }

    @Test("report --lang ru: the cover's period and the footer in Russian dates, pages numbered in Russian, the sign-off block")
    func russian() throws {
        let (pages, result) = try Self.report(["--lang", "ru"], signer: "Иван Петров, прораб")
        let all = pages.joined()
        #expect(result.err.contains { $0.hasSuffix("report.pdf: 6 страниц, 3 фотографии, " + ($0.split(separator: " ").dropLast().last ?? "") + " МБ") },
                "\(result.err)")
        #expect(pages[0].contains("Фотоотчёт") && pages[0].contains("Период") && pages[0].contains("23 ноября 2026 г. 09:00 +01:00"), "\(pages[0])")
        #expect(pages[0].contains("Страница 1 из 6"), "\(pages[0])")
        #expect(pages[1].contains("Перечень фотографий") && pages[1].contains("№"))
        #expect(all.contains("План расположения") && all.contains("Координаты") && all.contains("Файл"))
        let signOff = try #require(pages.last)
        #expect(signOff.contains("Подписи") && signOff.contains("Нижеподписавшиеся") && signOff.contains("Подпись") && signOff.contains("Дата"),
                "\(signOff)")
        #expect(signOff.contains("Иван Петров") && signOff.contains("прораб"))
        #expect(all.contains("Создан ") && all.contains(" программой stampcam"))
    }

    /// The words pdftotext finds on `page` of `pdf` (a Hebrew word comes letter by letter), with
    /// their edges, and the page's width.
    static func words(_ pdf: String, page: Int) throws -> (words: [(text: String, left: Double, right: Double, top: Double)], width: Double) {
        let html = try ExternalTool.run("pdftotext", ["-bbox", "-f", String(page), "-l", String(page), pdf, "-"]).out
        func number(_ name: String, in text: Substring) -> Double? {
            guard let start = text.range(of: name + "=\"") else { return nil }
            return Double(text[start.upperBound...].prefix { $0 != "\"" })
        }
        let width = html.split(separator: "<page ").dropFirst().first.flatMap { number("width", in: $0) } ?? 0
        let words = html.split(separator: "<word ").dropFirst().compactMap { part -> (String, Double, Double, Double)? in
            guard let left = number("xMin", in: part), let right = number("xMax", in: part), let top = number("yMin", in: part),
                  let open = part.firstIndex(of: ">"), let close = part.range(of: "</word>") else { return nil }
            return (String(part[part.index(after: open)..<close.lowerBound]), left, right, top)
        }
        return (words.map { (text: $0.0, left: $0.1, right: $0.2, top: $0.3) }, width)
    }

    /// Where `value`'s label is on its row: the edges of the row's other words, left and right of it.
    static func row(of value: String, in page: (words: [(text: String, left: Double, right: Double, top: Double)], width: Double)) throws
        -> (value: (left: Double, right: Double), label: (left: Double, right: Double)) {
        let word = try #require(page.words.first { $0.text == value }, "\(value) in \(page.words.map(\.text))")
        let others = page.words.filter { abs($0.top - word.top) < 3 && $0.text != value }
        let label = (left: others.map(\.left).min() ?? 0, right: others.map(\.right).max() ?? 0)
        return ((word.left, word.right), label)
    }

    @Test("a Hebrew report is the mirror of an English one: its labels right of their values, the values next to them")
    func rightToLeft() throws {
        let (_, result) = try Self.report(["--lang", "he"], signer: "יוסי כהן, מנהל עבודה")
        let pdf = try #require(result.out.first)
        let cover = try Self.words(pdf, page: 1)
        let depot = try Self.row(of: "Depot", in: cover)
        #expect(depot.value.left > cover.width / 2 && depot.value.right < depot.label.left, "\(depot)")
        let photo = try Self.words(pdf, page: 4)
        let file = try Self.row(of: "eiffel.jpg", in: photo)
        #expect(file.value.left > photo.width / 2 && file.value.right < file.label.left, "\(file)")
        // English, for the comparison: the label left of its value.
        let (_, english) = try Self.report([], signer: "Wang Fang, Client")
        let englishCover = try Self.words(try #require(english.out.first), page: 1)
        let englishDepot = try Self.row(of: "Depot", in: englishCover)
        #expect(englishDepot.value.right < englishCover.width / 2 && englishDepot.label.right < englishDepot.value.left, "\(englishDepot)")
    }

    @Test("report --lang with no catalogue: an English report, and a line saying so; --lang zh finds zh_CN")
    func unknownLanguage() throws {
        let (pages, result) = try Self.report(["--lang", "xx"], signer: "Wang Fang, Client")
        #expect(result.err.contains("stampcam: note: no catalogue for xx: the report is in English"), "\(result.err)")
        #expect(pages[0].contains("Photo report"))
        let (chinese, _) = try Self.report(["--lang", "zh"], signer: "王芳, 现场经理")
        #expect(chinese[0].contains("照片报告"), "\(chinese[0])")
    }
}
