import Catalog
import Foundation
import Platform
import Testing
import TestSupport

/// `stampcam report`, checked with poppler's tools (Debian poppler-utils, installed by `make deps`):
/// pages, fonts, text, and images embedded as the JPEG files they are.
@Suite struct ReportCommandTests {
    static func poppler(_ tool: String, _ arguments: [String]) throws -> String {
        let result = try ExternalTool.run(tool, arguments)
        #expect(result.status == 0, "\(tool): \(result.err)")
        return result.out
    }

    static func pages(_ pdf: String) throws -> Int? {
        try poppler("pdfinfo", [pdf]).split(separator: "\n").first { $0.hasPrefix("Pages:") }
            .flatMap { Int($0.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces)) }
    }

    /// pdffonts' rows: font name and whether it is embedded.
    static func fonts(_ pdf: String) throws -> [(name: String, embedded: Bool)] {
        try poppler("pdffonts", [pdf]).split(separator: "\n").dropFirst(2).map { line in
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            // name type… encoding emb sub uni object-id generation: emb is fifth from the end.
            return (String(columns[0]), columns[columns.count - 5] == "yes")
        }
    }

    /// pdfimages -list's rows, split into columns.
    static func imageList(_ pdf: String) throws -> [[String]] {
        try poppler("pdfimages", ["-list", pdf]).split(separator: "\n").dropFirst(2).map { line in
            line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        }
    }

    /// The images the PDF holds (each once, however many pages draw it): their encodings by object number.
    static func imageEncodings(_ pdf: String) throws -> [String: String] {
        Dictionary(try imageList(pdf).map { ($0[10], $0[8]) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("report of a filter: cover + photos per page, fonts embedded, each photo's project and time in the text, JPEGs embedded byte for byte",
          arguments: [1, 2, 4, 6])
    func report(perPage: Int) throws {
        let (catalog, out) = try LogCommandTests.crafted()
        let pdf = out + "/../report-\(perPage).pdf"
        let result = CLI.run(["report", "--catalog", catalog, "-o", pdf, "--layout", String(perPage)])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out == [pdf])
        // The cover, one page of index, the photos (Paris, Rome and Sydney are too far apart for a plan).
        let expectedPages = 2 + (5 + perPage - 1) / perPage
        #expect(result.err.count == 3)
        #expect(result.err.first == "stampcam: note: no location plan: the photos are more than 20 km apart")
        let summary = result.err.dropFirst().first ?? ""
        #expect(summary == "stampcam: \(pdf): \(expectedPages) pages, 5 photos, \(summary.split(separator: " ").dropLast(1).last ?? "?") MB")
        let digest = try #require(try ExternalTool.run("sha256sum", [pdf]).out.split(separator: " ").first)
        #expect(result.err.last == "stampcam: SHA-256 \(digest)  \(pdf)")
        #expect(try Self.pages(pdf) == expectedPages)
        let fonts = try Self.fonts(pdf)
        #expect(!fonts.isEmpty && fonts.allSatisfy(\.embedded), "\(fonts)")
        let text = try Self.poppler("pdftotext", ["-layout", pdf, "-"])
        for row in try CatalogCommandTests.rows(catalog) {
            let time = try #require(row.time)
            #expect(text.contains("\(time.dateText) \(time.timeText) \(time.offsetText)"), "\(time)")
            #expect(text.contains(try #require(row.project)))
            #expect(text.contains((row.path as NSString).lastPathComponent))
        }
        #expect(text.contains("Photo report") && text.contains("Page 1 of \(expectedPages)") && text.contains("Generated "))
        #expect(Array(try Self.imageEncodings(pdf).values) == Array(repeating: "jpeg", count: 5))
        // Not decoded and compressed again: pdfimages -j writes out the very bytes of each file.
        let extracted = try TestFiles.temporaryFolder("extracted")
        _ = try Self.poppler("pdfimages", ["-j", pdf, extracted + "/image"])
        let embedded = Set(try TestFiles.files(in: extracted).map { try TestFiles.bytes(extracted + "/" + $0) })
        let photos = Set(try TestFiles.files(in: out).map { try TestFiles.bytes(out + "/" + $0) })
        #expect(embedded == photos)
    }

    @Test("report PHOTO...: a CJK title, a photo stored turned (embedded upright, still as JPEG), a PNG (as a JPEG), photos without a record; page 1 renders")
    func photos() throws {
        let base = try TestFiles.temporaryFolder("report-photos")
        let stamped = CLI.run(["apply", try Fixtures.site.write(to: base + "/in"), "-o", base + "/out", "--no-catalog",
                               "--user", "山田太郎", "--project", "橋 7", "--note", "<b>bold</b> & 'quoted'"])
        #expect(stamped.code == 0)
        let turned = try Fixtures.oriented(.right, width: 320, height: 480).write(to: base + "/in")
        let pdf = base + "/报告.pdf"
        let png = base + "/in/card.png"
        #expect(try Fixtures.card(width: 300, height: 200).writePNG(to: png))
        let result = CLI.run(["report", base + "/out/site.jpg", turned, png, "-o", pdf, "--title", "第47周 inspection"])
        #expect(result.code == 0, "\(result.err)")
        // The cover, the index, the plan (one photo has a position), two pages of photos.
        #expect(try Self.pages(pdf) == 5)
        let fonts = try Self.fonts(pdf)
        #expect(fonts.contains { $0.name.contains("CJK") || $0.name.contains("WenQuanYi") } && fonts.allSatisfy(\.embedded), "\(fonts)")
        let text = try Self.poppler("pdftotext", [pdf, "-"])
        // pdftotext drops the space where the font changes from CJK to Latin.
        #expect(text.contains("第47周 inspection") && text.contains("山田太郎") && text.replacingOccurrences(of: " ", with: "").contains("橋7"))
        #expect(text.contains("<b>bold</b> & 'quoted'"))
        #expect(Array(try Self.imageEncodings(pdf).values) == ["jpeg", "jpeg", "jpeg"])
        let sizes = Set(try Self.imageList(pdf).map { [$0[3], $0[4]] })
        #expect(sizes.isSuperset(of: [["320", "480"], ["300", "200"]]))  // upright: as tall as it is shown
        _ = try Self.poppler("pdftoppm", ["-r", "40", "-f", "1", "-l", "1", "-png", pdf, base + "/page"])
        let page = try TestFiles.bytes(base + "/page-1.png")
        #expect(page.count > 1000 && page.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("the report marks a time that is not when the photo was taken, as the stamp does: a file's modification time, a time set by hand")
    func timeMarks() throws {
        let base = try TestFiles.temporaryFolder("report-marks")
        let png = base + "/card.png"
        #expect(try Fixtures.card(width: 300, height: 200).writePNG(to: png))
        let shot = CLI.run(["shoot", "--yes", "--device", "test", "--resolution", "640x360", "-o", base + "/shots", "--no-catalog",
                            "--time", "2020-01-01T08:00:00+08:00"])
        #expect(shot.code == 0, "\(shot.err)")
        let pdf = base + "/marks.pdf"
        let result = CLI.run(["report", png, try #require(shot.out.last), "-o", pdf])
        #expect(result.code == 0, "\(result.err)")
        let text = try Self.poppler("pdftotext", [pdf, "-"])
        #expect(text.contains("(file time)") && text.contains("2020-01-01 08:00:00 +08:00 (set by hand)"), "\(text)")
    }

    @Test("a logged photo that is gone is left out with a line, the rest make the report (exit 66); nothing to report is an error")
    func missingPhotos() throws {
        let (catalog, out) = try LogCommandTests.crafted()
        try FileManager.default.removeItem(atPath: out + "/rome.jpg")
        let pdf = out + "/../r.pdf"
        let result = CLI.run(["report", "--catalog", catalog, "-o", pdf])
        #expect(result.code == 66)
        #expect(result.err.first == "stampcam: left out of the report: \(FileSystem.absolute(out + "/rome.jpg")): cannot read: No such file or directory")
        #expect(try Self.pages(pdf) == 4)
        let none = CLI.run(["report", "--catalog", catalog, "-o", pdf, "--project", "nothing"])
        #expect(none.code == 66 && none.err == ["stampcam: no photos to report: none is logged that matches"])
    }

    @Test("--layout 1 --company --logo --sign-off --author: the cover, the sign-off page and the metadata say so")
    func cover() throws {
        let (catalog, out) = try LogCommandTests.crafted()
        let logo = out + "/../logo.png"
        #expect(try Fixtures.card(width: 200, height: 100).writePNG(to: logo))
        let pdf = out + "/../signed.pdf"
        // A code as signing writes it: shown in the header of the photo's page.
        let update = try ExternalTool.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE photos SET code = 'K7Q2-M9XD' WHERE path LIKE '%/eiffel.jpg'")
            db.commit()
            """, [catalog])
        #expect(update.status == 0, "\(update.err)")
        let result = CLI.run(["report", "--catalog", catalog, "-o", pdf, "--layout", "1", "--company", "Acme Site Services",
                              "--logo", logo, "--sign-off", "Wang Fang, Site manager", "--sign-off", "Jean Dupont, Client, QA",
                              "--author", "Li Wei", "--until", "2026-11-26"])
        #expect(result.code == 0, "\(result.err)")
        // The cover, the index, the plan (three photos in Paris, one without a position), three photos, the sign-off.
        #expect(try Self.pages(pdf) == 7)
        let info = try Self.poppler("pdfinfo", [pdf])
        #expect(info.contains("Author:          Li Wei") && info.contains("Title:           Photo report"), "\(info)")
        let text = try Self.poppler("pdftotext", ["-layout", pdf, "-"])
        let pages = text.split(separator: "\u{0C}").map(String.init)
        #expect(pages[0].contains("Acme Site Services") && pages[0].contains("Li Wei") && pages[0].contains("Period"))
        #expect(pages[6].contains("Wang Fang") && pages[6].contains("Site manager") && pages[6].contains("Client, QA"))
        #expect(pages[6].contains("Page 7 of 7"))
        #expect(pages[3].contains("Verification code 1: K7Q2-M9XD"))
        #expect(!pages[4].contains("K7Q2-M9XD"))
        // The logo is an input: never written over, not even with --overwrite.
        let over = CLI.run(["report", "--catalog", catalog, "-o", logo, "--logo", logo, "--overwrite", "--until", "2026-11-24"])
        #expect(over.code != 0 && over.err.last?.contains("logo.png") == true, "\(over.err)")
        #expect(try Fixtures.card(width: 200, height: 100).writePNG(to: logo + ".copy"))
        #expect(try TestFiles.bytes(logo) == TestFiles.bytes(logo + ".copy"))
    }

    @Test("a bad --logo, --layout or --sign-off: one line naming it, and no report", arguments: [
        (["--logo", "/nonexistent/logo.png"], 66, "stampcam: /nonexistent/logo.png: cannot use this logo: file not found"),
        (["--layout", "3"], 64, "--layout"), (["--sign-off", ", Engineer"], 64, "--sign-off"),
    ])
    func badOptions(_ arguments: [String], _ code: Int32, _ line: String) throws {
        let (catalog, out) = try LogCommandTests.crafted()
        let pdf = out + "/../bad.pdf"
        let result = CLI.run(["report", "--catalog", catalog, "-o", pdf] + arguments)
        #expect(result.code == code, "\(result.err)")
        #expect(result.err.count == 1 && result.err[0].contains(line), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: pdf))
    }
}
