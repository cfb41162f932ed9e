import Foundation
import Imaging
import Templates
import Testing
import TestSupport
import Values
@testable import Watermark

/// The contact sheet `make sheet` renders: every built-in style (columns) on five photos (rows) —
/// bright, dark, portrait, small, and one stamped in Chinese, Korean, Hebrew and Arabic — then a
/// test card per language we ship, its labels from po/LANG.po. Real photos from ../shared/corpus
/// when it is there, else pictures made here. Written to
/// `$STAMPCAM_SHEET` (default `.build/contact-sheet.jpg`).
@Suite struct ContactSheetTests {
    struct Row {
        var label: String
        var photo: Photo
        var fields: Fields
    }

    static let latin = Fields(user: "Li Wei", project: "Bridge 7 – north pier", location: "Pier 4, Nanjing",
                              note: "crack width 0.3 mm")
    static let scripts = Fields(user: "山田太郎 김민준", project: "גשר הצפון 7", location: "القاهرة، مصر", note: "北側の亀裂 0.3 mm")

    /// Who, what and a note in each language we ship, for its row.
    static let languages: [(code: String, fields: Fields)] = [
        ("zh_CN", Fields(user: "李伟", project: "青浦大桥", note: "北墙裂缝 0.3 mm")),
        ("es", Fields(user: "Ana García", project: "Puente 7", note: "muro norte: grieta de 0,3 mm")),
        ("pt_BR", Fields(user: "João Silva", project: "Ponte 7", note: "parede norte: fissura de 0,3 mm")),
        ("fr", Fields(user: "Claire Martin", project: "Pont 7", note: "mur nord : fissure de 0,3 mm")),
        ("de", Fields(user: "Jonas Weber", project: "Brücke 7", note: "Nordwand: Riss 0,3 mm")),
        ("ar", Fields(user: "أحمد علي", project: "جسر 7", note: "الجدار الشمالي: شرخ 0.3 مم")),
        ("ja", Fields(user: "山田太郎", project: "7号橋", note: "北壁のひび割れ 0.3 mm")),
        ("ru", Fields(user: "Сергей Иванов", project: "Мост 7", note: "северная стена: трещина 0,3 мм")),
        ("hi", Fields(user: "राजेश कुमार", project: "पुल 7", note: "उत्तरी दीवार: दरार 0.3 मिमी")),
        ("vi", Fields(user: "Nguyễn Thị Hương", project: "Cầu 7", note: "tường phía bắc: vết nứt 0,3 mm")),
        ("he", Fields(user: "יוסי כהן", project: "גשר 7", note: "הקיר הצפוני: סדק 0.3 מ״מ")),
    ]

    /// A test card per language, stamped in its words.
    static func languageRows() throws -> [Row] {
        let time = Fields(time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00"), timeSource: "command line")
        return try languages.map { language in
            var fields = language.fields.filled(from: time)
            fields.words = StampWords.translated(try Catalogue.translator(language.code))
            return Row(label: "\(language.code): test card", photo: Photo(bitmap: try Fixtures.card(width: 480, height: 320)), fields: fields)
        }
    }

    /// A photo's own fields: its EXIF time (with its zone when it has one), camera and GPS.
    static func own(_ photo: Photo, given: Fields) -> Fields {
        var fields = given
        let metadata = photo.metadata
        if let original = metadata.dateTimeOriginal ?? metadata.dateTime,
           let time = Timestamp(exif: original, offset: metadata.offsetTimeOriginal) {
            fields.time = time
            fields.timeSource = "EXIF"
        } else {
            fields.time = Timestamp(iso8601: "2026-11-29T14:03:12+08:00")
            fields.timeSource = "command line"
        }
        fields.camera = metadata.model
        if let gps = metadata.gps {
            fields.latitude = gps.latitude
            fields.longitude = gps.longitude
            fields.altitude = gps.altitude
        }
        return fields
    }

    static func mean(_ bitmap: Bitmap) -> Double {
        var total = 0.0, count = 0
        for y in stride(from: 0, to: bitmap.height, by: 4) {
            for x in stride(from: 0, to: bitmap.width, by: 4) {
                total += LegibilityProbe.luminance(bitmap.rgb(x: x, y: y))
                count += 1
            }
        }
        return total / Double(max(1, count))
    }

    /// Five corpus photos: the snow scene (or the brightest), the darkest, a portrait, the smallest,
    /// and one more for the other scripts.
    static func corpusRows() throws -> [Row] {
        var photos: [(path: String, photo: Photo, brightness: Double)] = []
        for path in Corpus.photos {
            guard let photo = try? Photo(jpeg: try TestFiles.bytes(path), options: LoadOptions(maxSize: 480)) else { continue }
            photos.append((path, photo, mean(photo.bitmap)))
        }
        guard photos.count >= 5 else { return [] }
        var used = Set<String>()
        func pick(_ label: String, _ choose: ([(path: String, photo: Photo, brightness: Double)]) -> (path: String, photo: Photo, brightness: Double)?,
                  fields: Fields = latin) -> Row? {
            guard let chosen = choose(photos.filter { !used.contains($0.path) }) else { return nil }
            used.insert(chosen.path)
            let name = chosen.path.split(separator: "/").last.map(String.init) ?? chosen.path
            return Row(label: "\(label): \(name)", photo: chosen.photo, fields: own(chosen.photo, given: fields))
        }
        return [
            pick("bright") { $0.first { $0.path.hasSuffix("Nikon D3100.jpg") } ?? $0.max { $0.brightness < $1.brightness } },
            pick("dark") { $0.min { $0.brightness < $1.brightness } },
            pick("portrait") { $0.first { $0.photo.height > $0.photo.width } },
            pick("small") { $0.min { $0.photo.sourceWidth * $0.photo.sourceHeight < $1.photo.sourceWidth * $1.photo.sourceHeight } },
            pick("scripts", { $0.first { $0.path.hasSuffix("Canon EOS 1000D.jpg") } ?? $0.first }, fields: scripts),
        ].compactMap { $0 }
    }

    /// The same five kinds made from the test card: overexposed, underexposed, upright, small.
    static func fixtureRows() throws -> [Row] {
        func card(_ width: Int, _ height: Int, _ change: (UInt8) -> UInt8 = { $0 }) throws -> Photo {
            var bitmap = try Fixtures.card(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    let p = bitmap.rgb(x: x, y: y)
                    bitmap.setRGB(x: x, y: y, (change(p.red), change(p.green), change(p.blue)))
                }
            }
            return Photo(bitmap: bitmap)
        }
        let time = Fields(time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00"), timeSource: "command line")
        return [
            Row(label: "bright: test card, overexposed", photo: try card(480, 320) { UInt8(215 + Int($0) * 40 / 255) },
                fields: latin.filled(from: time)),
            Row(label: "dark: test card, underexposed", photo: try card(480, 320) { $0 / 8 }, fields: latin.filled(from: time)),
            Row(label: "portrait: test card", photo: try card(320, 480), fields: latin.filled(from: time)),
            Row(label: "small: test card, 240x160", photo: try card(240, 160), fields: latin.filled(from: time)),
            Row(label: "scripts: test card", photo: try card(480, 320), fields: scripts.filled(from: time)),
        ]
    }

    @Test("the contact sheet: six styles on five photos and a card per language, every character printed, every line legible")
    func sheet() throws {
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        let rows = (Corpus.isPresent ? try Self.corpusRows() : try Self.fixtureRows()) + (try Self.languageRows())
        #expect(rows.count == 5 + Self.languages.count)
        let shipped = TestFiles.files(in: TestFiles.packageRoot + "/po").filter { $0.hasSuffix(".po") }.map { String($0.dropLast(3)) }
        #expect(Self.languages.map(\.code).sorted() == shipped, "a card for each language of po/")
        var tiles: [(photo: Photo, caption: String)] = []
        for row in rows {
            for id in Fixture.builtInIDs {
                let template = try Fixture.template(id)
                var photo = row.photo
                let report = try watermarker.stamp(&photo, template: template, fields: row.fields)
                #expect(report.missingCharacters.isEmpty, "\(id) on \(row.label): \(report.missingCharacters)")
                for line in try LegibilityProbe.lines(row.photo, template: template, fields: row.fields, watermarker: watermarker)
                    where line.pixels > 0 {
                    #expect(line.legible >= 0.9, "\(id) on \(row.label): \(line)")
                }
                tiles.append((photo, "\(template.name) · \(row.label.prefix { $0 != ":" })"))
            }
        }
        let sheet = try #require(watermarker.contactSheet(tiles, columns: Fixture.builtInIDs.count))
        let path = ProcessInfo.processInfo.environment["STAMPCAM_SHEET"].flatMap { $0.isEmpty ? nil : $0 }
            ?? TestFiles.packageRoot + "/.build/contact-sheet.jpg"
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                                                withIntermediateDirectories: true)
        try TestFiles.write(try sheet.jpeg(quality: 90), to: path)
        print("contact sheet: \(path) (\(sheet.width)x\(sheet.height)); rows: " + rows.map(\.label).joined(separator: "; "))
    }
}
