import Foundation
import Testing
import TestSupport

/// What `verify`, `doctor` and `log` print, run by the built binary in English, German and Arabic:
/// every sentence a person reads is translated, and what scripts read (`--json`) is the same in every language.
@Suite struct CommandLanguageTests {
    /// A photo stamped and signed, a copy of it changed after signing, and the log that holds the first.
    struct Photos {
        let folder: String, signed: String, changed: String, catalog: String
    }

    static func photos(catalogues: String) throws -> Photos {
        let folder = try TestFiles.temporaryFolder("command-language")
        let input = try Fixtures.site.write(to: folder)
        let catalog = folder + "/catalog.sqlite"
        let applied = try LanguageTests.run(["apply", input, "-o", folder + "/out", "--user", "Ana", "--catalog", catalog], "LANG=C", catalogues: catalogues)
        #expect(applied.code == 0, "\(applied.err)")
        let signed = folder + "/out/" + (input as NSString).lastPathComponent
        var bytes = try TestFiles.bytes(signed)
        // A byte of the picture, near its end: the hard binding no longer holds.
        bytes[bytes.count - 100] ^= 0x55
        let changed = folder + "/changed.jpg"
        try TestFiles.write(bytes, to: changed)
        return Photos(folder: folder, signed: signed, changed: changed, catalog: catalog)
    }

    /// The commands a person reads, each with what it must say in English (so a run that printed
    /// nothing cannot pass).
    static func commands(_ photos: Photos) -> [(arguments: [String], english: String)] {
        [(["verify", photos.signed], "  outcome      signer not trusted"),
         (["verify", photos.changed], "  unchanged    no"),
         (["doctor"], "ok       fonts         every script checked prints: Latin"),
         (["log", "--check", "--catalog", photos.catalog], "stampcam: 1 photo checked: 1 unchanged, 0 moved, 0 missing, 0 changed"),
         (["log", "--verify", "--catalog", photos.catalog], "stampcam: 1 row in 1 chain verified intact"),
         (["log", "--catalog", photos.folder + "/none.sqlite"], "stampcam: note: no photos logged yet")]
    }

    /// A line with words in it: not empty, not a path of this test's, not the certificate's
    /// fingerprint, nor below `verify`'s stamp heading (the photo's own fields, as they are).
    static func sentences(_ result: CLIResult, photos: Photos) -> [String] {
        let lines = result.out + result.err
        return (lines.firstIndex(of: "  stamp").map { Array(lines[..<$0]) } ?? lines).filter { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !trimmed.isEmpty && !trimmed.hasPrefix(photos.folder) && !trimmed.hasPrefix("SHA-256")
                && trimmed.contains { $0.isLetter }
        }
    }

    @Test("verify, doctor and log speak German and Arabic: no English line of theirs is left")
    func noEnglishLeft() throws {
        let catalogues = try LanguageTests.catalogues()
        let photos = try Self.photos(catalogues: catalogues)
        for (arguments, english) in Self.commands(photos) {
            let inEnglish = try LanguageTests.run(arguments, "LANG=C", catalogues: catalogues)
            #expect((inEnglish.out + inEnglish.err).contains { $0.hasPrefix(english) }, "\(arguments): \(inEnglish.out + inEnglish.err)")
            let said = Self.sentences(inEnglish, photos: photos)
            for language in ["de", "ar"] {
                let translated = try LanguageTests.run(["--lang", language] + arguments, "LANG=C", catalogues: catalogues)
                #expect(translated.code == inEnglish.code, "\(language) \(arguments)")
                let lines = Set(translated.out + translated.err)
                let left = said.filter(lines.contains)
                #expect(left.isEmpty, "\(language) \(arguments) still says in English: \(left)")
            }
        }
    }

    @Test("--json of verify and log is the same in every language (but verify's sentence, the verdict in the run's language)")
    func jsonIsTheSame() throws {
        let catalogues = try LanguageTests.catalogues()
        let photos = try Self.photos(catalogues: catalogues)
        let runs: [[String]] = [["verify", "--json", photos.signed, photos.changed], ["log", "--json", "--catalog", photos.catalog],
                                ["log", "--check", "--json", "--catalog", photos.catalog], ["log", "--verify", "--json", "--catalog", photos.catalog]]
        for arguments in runs {
            let english = try LanguageTests.run(arguments, "LANG=C", catalogues: catalogues)
            #expect(!english.out.isEmpty || arguments.contains("--check") || arguments.contains("--verify"), "\(arguments)")
            for language in ["de", "ar", "zh_CN"] {
                let translated = try LanguageTests.run(["--lang", language] + arguments, "LANG=C", catalogues: catalogues)
                #expect(translated.code == english.code)
                #expect(try translated.out.map(Self.withoutSentence) == english.out.map(Self.withoutSentence), "\(language) \(arguments)")
            }
        }
    }

    /// A JSON line without its `sentence` (the one member in the run's language), keys sorted.
    static func withoutSentence(_ line: String) throws -> String {
        guard var object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return line }
        object["sentence"] = nil
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}

