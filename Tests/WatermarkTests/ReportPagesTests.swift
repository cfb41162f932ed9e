import Foundation
import Imaging
import Testing
import TestSupport
@testable import Watermark

/// The PDF report's pages, rendered by poppler's pdftoppm (Debian poppler-utils) and compared with
/// goldens (Goldens/report/, `RECORD_GOLDENS=1` re-records them); its metadata read by pdfinfo and
/// its words by pdftotext. The report is made here from test cards, so the pages are exact.
@Suite struct ReportPagesTests {
    /// A logo: an orange disc on transparency with a dark square inside.
    static let logoPNG = PNGFixture.make(width: 120, height: 60, form: .rgba(bits: 8)) { x, y in
        let dx = Double(x) - 30, dy = Double(y) - 30
        if abs(x - 30) < 10, abs(y - 30) < 10 { return (30, 30, 40, 255) }
        return dx * dx + dy * dy < 28 * 28 || (x > 64 && y > 20 && y < 40) ? (230, 120, 20, 255) : (0, 0, 0, 0)
    }

    static func photo(_ number: Int, width: Int, height: Int, code: String? = nil) throws -> PhotoReport.Item {
        let card = try Fixtures.card(width: width, height: height)
        let jpeg = try Photo(bitmap: card).jpeg(quality: 85)
        let preview = try Photo(jpeg: jpeg, options: LoadOptions(maxSize: 96))
        let time = "2026-11-29 0\(number):15:00 +08:00"
        return PhotoReport.Item(number: number, jpeg: jpeg, pixelWidth: width, pixelHeight: height, preview: preview.bitmap,
                                rows: [PhotoReport.Row("Photo", "\(number) of 6"), PhotoReport.Row("Time", time),
                                       PhotoReport.Row("Who", "李伟 Li Wei"), PhotoReport.Row("Where", "North wall, bay \(number)"),
                                       PhotoReport.Row("Note", number == 2 ? "Crack 2 mm wide above the lintel; re-check after rain" : "")],
                                summary: PhotoReport.Summary(time: "2026-11-29 0\(number):15 +08:00", who: "李伟 Li Wei", place: "North wall, bay \(number)",
                                                             note: number == 2 ? "Crack 2 mm wide above the lintel; re-check after rain" : ""),
                                code: code)
    }

    /// Six photos (the first with a verification code, or all of them `coded`) one a page or `perPage`.
    static func report(perPage: Int = 1, coded: Bool = false) throws -> PhotoReport {
        typealias Point = PhotoReport.Plan.Point
        let items = try (1...6).map { number in
            try photo(number, width: number % 3 == 0 ? 300 : 400, height: number % 3 == 0 ? 400 : 300,
                      code: number == 1 ? "K7Q2-M9XD" : coded ? "K7Q2-M9X\(number)" : nil)
        }
        let yard = PhotoReport.Plan.Area(name: "Pier 4 yard", rings: [[Point(east: -60, north: -40), Point(east: 60, north: -40),
                                                                       Point(east: 60, north: 40), Point(east: -60, north: 40)]])
        let plan = PhotoReport.Plan(areas: [yard], photos: (1...6).map {
            PhotoReport.Plan.Mark(number: $0, point: Point(east: Double($0) * 18 - 60, north: Double($0 % 3) * 20 - 20))
        })
        return PhotoReport(title: "Weekly inspection: Pier 4 — 北岸",
                           cover: [PhotoReport.Row("Project", "Pier 4"), PhotoReport.Row("Site", "Pier 4 yard"),
                                   PhotoReport.Row("Period", "2026-11-29 01:15 +08:00 – 2026-11-29 06:15 +08:00"),
                                   PhotoReport.Row("Photos", "6")],
                           footer: "Generated 2026-11-30 09:00:00 +08:00 by stampcam", creator: "stampcam",
                           created: "2026-11-30T09:00:00+08:00", perPage: perPage, items: items, company: "Acme Site Services",
                           logo: .png(logoPNG, width: 120, height: 60), author: "Wang Fang", subject: "6 photos, 2026-11-29",
                           plan: plan, signers: [PhotoReport.Signer(name: "Wang Fang", role: "Site manager"),
                                                 PhotoReport.Signer(name: "Jean Dupont", role: "Client's engineer")])
    }

    static func write(_ report: PhotoReport, label: String) throws -> String {
        let pdf = try Watermarker(fontConfig: Fixture.fontConfig).pdf(report)
        let path = try TestFiles.temporaryFolder(label) + "/report.pdf"
        try TestFiles.write(pdf, to: path)
        return path
    }

    /// Page `page` rendered at `dpi` by pdftoppm.
    static func render(_ pdf: String, page: Int, dpi: Int = 30) throws -> Bitmap {
        let prefix = pdf + "-page\(page)"
        let result = try ExternalTool.run("pdftoppm", ["-r", String(dpi), "-f", String(page), "-l", String(page), "-singlefile",
                                                       "-png", pdf, prefix])
        #expect(result.status == 0, "\(result.err)")
        return try #require(Bitmap(pngFile: prefix + ".png"))
    }

    @Test("layout 1: cover, index, plan, one photo a page (portrait photos use the height), sign-off — page by page as the goldens")
    func goldenPages() throws {
        let report = try Self.report()
        #expect(report.pageCount == 10)
        let pdf = try Self.write(report, label: "report-golden")
        for (page, name) in [(1, "cover"), (2, "index"), (3, "plan"), (4, "photo-landscape"), (6, "photo-portrait"), (10, "sign-off")] {
            let problem = Golden.mismatch(try Self.render(pdf, page: page),
                                          golden: TestFiles.packageRoot + "/Tests/WatermarkTests/Goldens/report/\(name).png")
            #expect(problem == nil, "page \(page): \(problem ?? "")")
        }
    }

    @Test("the contact grid and two a page: as the goldens", arguments: [2, 4])
    func goldenGrid(perPage: Int) throws {
        let pdf = try Self.write(try Self.report(perPage: perPage), label: "report-grid")
        let problem = Golden.mismatch(try Self.render(pdf, page: 4),
                                      golden: TestFiles.packageRoot + "/Tests/WatermarkTests/Goldens/report/layout-\(perPage).png")
        #expect(problem == nil, "\(problem ?? "")")
    }

    @Test("six photos a page, each with a code: every code in the header (on two lines), as the golden")
    func sixCodes() throws {
        let pdf = try Self.write(try Self.report(perPage: 6, coded: true), label: "report-codes")
        let problem = Golden.mismatch(try Self.render(pdf, page: 4),
                                      golden: TestFiles.packageRoot + "/Tests/WatermarkTests/Goldens/report/layout-6-codes.png")
        #expect(problem == nil, "\(problem ?? "")")
        let text = try ExternalTool.run("pdftotext", ["-f", "4", "-l", "4", "-layout", pdf, "-"]).out
        let header = text.split(separator: "\n").prefix(3).joined(separator: " ")
        for number in 1...6 {
            #expect(header.contains("\(number): K7Q2-M9X\(number == 1 ? "D" : String(number))"), "\(number) in \(header)")
        }
    }

    @Test("pdfinfo: title, author, subject, creator, creation date, pages; pdftotext: page numbers, index, codes, sign-off")
    func metadataAndText() throws {
        let pdf = try Self.write(try Self.report(), label: "report-info")
        let info = try ExternalTool.run("pdfinfo", ["-isodates", pdf]).out
        for line in ["Title:           Weekly inspection: Pier 4 — 北岸", "Author:          Wang Fang", "Subject:         6 photos, 2026-11-29",
                     "Creator:         stampcam", "CreationDate:    2026-11-30T09:00:00+08", "Pages:           10"] {
            #expect(info.contains(line), "\(line) in \(info)")
        }
        let text = try ExternalTool.run("pdftotext", ["-layout", pdf, "-"]).out
        let pages = text.split(separator: "\u{0C}", omittingEmptySubsequences: false).map(String.init)
        for page in 1...10 { #expect(pages[page - 1].contains("Page \(page) of 10"), "page \(page)") }
        #expect(pages[0].contains("Acme Site Services"))
        #expect(pages[1].contains("Index of photos") && pages[1].contains("North wall, bay 6") && pages[1].contains("Crack 2 mm"))
        #expect(pages[2].contains("Location plan") && pages[2].contains("Pier 4 yard") && pages[2].contains("20 m"))
        #expect(pages[3].contains("Verification code 1: K7Q2-M9XD"))
        #expect(!pages[4].contains("Verification code"))
        #expect(pages[9].contains("Wang Fang") && pages[9].contains("Client's engineer") && pages[9].contains("Signature"))
        // The index's thumbnails are the photos themselves: six JPEGs in the file, each once.
        let images = try ExternalTool.run("pdfimages", ["-list", pdf]).out.split(separator: "\n").dropFirst(2)
            .map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let jpegs = Set(images.filter { $0[8] == "jpeg" }.map { $0[10] })
        #expect(jpegs.count == 6, "\(images)")
    }

    @Test("the plan's scale bar is a round length: 1, 2 or 5 times a power of ten")
    func roundLengths() {
        #expect(PlanScale.roundLength(below: 37) == 20)
        #expect(PlanScale.roundLength(below: 50) == 50)
        #expect(PlanScale.roundLength(below: 199) == 100)
        #expect(PlanScale.roundLength(below: 4321) == 2000)
        #expect(PlanScale.roundLength(below: 0.3) == 1)
        #expect(PlanScale.lengthText(2000) == "2 km" && PlanScale.lengthText(50) == "50 m")
    }

    @Test("photos taken on one spot share a dot labelled with every number, as runs")
    func spotLabels() {
        #expect(PlanScale.ranges([8, 1, 2, 3, 5, 7]) == "1–3, 5, 7–8")
        #expect(PlanScale.ranges([12]) == "12")
    }
}
