import Foundation
import Platform
import Testing

/// The catalogues read as values: every text and plural form of every shipped catalogue as Python's
/// gettext module (an independent reader of msgfmt's files) reads it, hostile files refused, and two
/// languages spoken at once on two threads.
struct MessageCatalogueTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static var shipped: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root + "/po")) ?? [])
            .filter { $0.hasSuffix(".po") }.map { String($0.dropLast(3)) }.sorted()
    }

    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, out: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// `po/LANG.po` compiled by msgfmt into a temp file.
    static func compiled(_ language: String) throws -> String {
        // A file of its own per call: tests running at once compile the same language.
        let mo = NSTemporaryDirectory() + "stampcam-\(getpid())-\(UUID().uuidString)-\(language).mo"
        let result = try run("/usr/bin/msgfmt", ["-o", mo, root + "/po/\(language).po"])
        try #require(result.status == 0, "msgfmt failed on \(language).po")
        return mo
    }

    /// `po/LANG.po` compiled by msgfmt and read.
    static func catalogue(_ language: String) throws -> MessageCatalogue {
        let mo = try compiled(language)
        defer { try? FileManager.default.removeItem(atPath: mo) }
        return try MessageCatalogue(mo: Array(try Data(contentsOf: URL(fileURLWithPath: mo))))
    }

    /// Python's reading of a `.mo`: every key's translation, and each plural's form for 0…300.
    static let oracle = """
        import gettext, json, sys
        t = gettext.GNUTranslations(open(sys.argv[1], 'rb'))
        texts, plurals = {}, []
        for key, value in t._catalog.items():
            if isinstance(key, tuple):
                if key[1] == 0:
                    plurals.append([key[0], [t.ngettext(key[0], key[0] + '#', n) for n in range(301)]])
            elif key:
                texts[key] = value
        json.dump({'texts': texts, 'plurals': plurals}, sys.stdout)
        """

    @Test("each shipped catalogue reads as Python's gettext reads it: every text, context and plural form for 0…300",
          arguments: shipped)
    func agreesWithPython(language: String) throws {
        let mo = try Self.compiled(language)
        defer { try? FileManager.default.removeItem(atPath: mo) }
        let catalogue = try MessageCatalogue(mo: Array(try Data(contentsOf: URL(fileURLWithPath: mo))))
        #expect(catalogue.language == language)
        let result = try Self.run("/usr/bin/python3", ["-c", Self.oracle, mo])
        try #require(result.status == 0)
        struct Read: Decodable { let texts: [String: String]; let plurals: [[Plural]] }
        enum Plural: Decodable {
            case text(String), forms([String])
            init(from decoder: Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let text = try? container.decode(String.self) { self = .text(text) } else { self = .forms(try container.decode([String].self)) }
            }
        }
        let read = try JSONDecoder().decode(Read.self, from: result.out)
        #expect(read.texts.count > 100)
        for (key, expected) in read.texts {
            let parts = key.split(separator: "\u{4}", maxSplits: 1).map(String.init)
            let found = parts.count == 2 ? catalogue.text(parts[1], context: parts[0]) : catalogue.text(parts[0])
            #expect(found == expected, "\(language): \(key)")
        }
        for pair in read.plurals {
            guard case .text(let singular) = pair[0], case .forms(let forms) = pair[1] else { continue }
            for (count, expected) in forms.enumerated() {
                #expect(catalogue.text(singular, count: count) == expected, "\(language): '\(singular)' for \(count)")
            }
        }
    }

    @Test("Arabic's six plural forms")
    func arabic() throws {
        let rule = try PluralRule("(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5)")
        let expected = [(0, 0), (1, 1), (2, 2), (3, 3), (10, 3), (11, 4), (99, 4), (100, 5), (102, 5), (103, 3), (111, 4)]
        for (count, form) in expected { #expect(rule.form(for: count) == form, "\(count)") }
        #expect(try PluralRule("n != 1").form(for: 1) == 0 && PluralRule("n > 1").form(for: 0) == 0)
    }

    @Test("a rule that is not C, or too deep, is refused without a crash", arguments: [
        "", "n +", "(n", "n ? 1", "n ! 1", "x", String(repeating: "(", count: 100_000) + "n" + String(repeating: ")", count: 100_000),
        String(repeating: "!", count: 100_000) + "n", "n / 0 ? 1 : 2 3",
    ])
    func badRules(expression: String) {
        #expect(throws: PluralRule.Malformed.self) { try PluralRule(expression) }
    }

    @Test("division by zero in a rule is 0, not a trap")
    func divisionByZero() throws {
        #expect(try PluralRule("n / 0 + n % 0").form(for: 5) == 0)
    }

    @Test("a damaged catalogue is refused, never a crash: cut, wrong magic, offsets and counts that lie")
    func damaged() throws {
        let mo = try Self.compiled("de")
        defer { try? FileManager.default.removeItem(atPath: mo) }
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: mo)))
        #expect(throws: MessageCatalogue.Malformed.self) { try MessageCatalogue(mo: Array(bytes.prefix(20))) }
        #expect(throws: MessageCatalogue.Malformed.self) { try MessageCatalogue(mo: [0, 0, 0, 0] + Array(bytes.dropFirst(4))) }
        for cut in stride(from: 28, to: bytes.count, by: max(1, bytes.count / 200)) {
            _ = try? MessageCatalogue(mo: Array(bytes.prefix(cut)))
        }
        for offset in stride(from: 8, to: 20, by: 4) {
            var lying = bytes
            lying.replaceSubrange(offset..<offset + 4, with: [0xff, 0xff, 0xff, 0x7f])
            #expect(throws: MessageCatalogue.Malformed.self) { try MessageCatalogue(mo: lying) }
        }
    }

    @Test("two threads speak two languages at once; the run's language stays as it was")
    func twoLanguagesAtOnce() throws {
        let german = try Self.catalogue("de"), spanish = try Self.catalogue("es")
        let before = Translation.run
        let results = ConditionLock<[String: Set<String>]>([:])
        let threads = [("de", german), ("es", spanish)].map { name, catalogue in
            Thread {
                let seen = Language(catalogues: [catalogue]).speaking {
                    Set((0..<2000).map { _ in Lp("label", "User") })
                }
                results.withLock { $0[name] = seen }
            }
        }
        threads.forEach { $0.start() }
        let done: Bool? = results.wait(timeout: 120, until: { $0.count == 2 }) { _ in true }
        #expect(done == true)
        results.withLock { seen in
            #expect(seen["de"] == [german.text("User", context: "label")!])
            #expect(seen["es"] == [spanish.text("User", context: "label")!])
        }
        #expect(Translation.run == before)
    }
}
