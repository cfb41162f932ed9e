import Foundation
import Imaging
import Templates
import Testing
import TestSupport
import Values
import Watermark

/// Every built-in style in the languages whose scripts lay out differently (right to left,
/// ideographs, Devanagari's conjuncts, Cyrillic, long German words), on a landscape and a portrait
/// photo, each with values written in that language: compared with goldens (re-record with
/// RECORD_GOLDENS=1 and look at them), and read back by OCR in the order a reader reads them.
@Suite struct LanguageGoldenTests {
    /// A language's stamp words and the values a crew of that language would type.
    struct Sample: Sendable, CustomStringConvertible {
        let language: String
        let user: String
        let project: String
        let location: String
        let note: String
        /// tesseract's name for the language's trained data, where OCR checks it.
        let ocr: String?
        var description: String { language }
    }

    static let samples = [
        Sample(language: "ar", user: "أحمد الخطيب", project: "مشروع الجسر ٧", location: "شارع الملك فهد 12، الرياض",
               note: "الجدار الشمالي متصدع بالقرب من النافذة", ocr: "ara"),
        Sample(language: "zh_CN", user: "李伟", project: "七号桥北段", location: "南京市鼓楼区中山北路8号",
               note: "北墙靠窗处有裂缝", ocr: "chi_sim"),
        Sample(language: "ja", user: "山田太郎", project: "第7橋梁 北工区", location: "東京都港区芝公園4-2-8",
               note: "北側の壁、窓の近くにひび割れ", ocr: nil),
        Sample(language: "de", user: "Jürgen Weiß", project: "Brücke 7 – Nordabschnitt",
               location: "Straße des 17. Juni 135, Berlin", note: "Riss in der Nordwand neben dem Fenster", ocr: nil),
        Sample(language: "he", user: "יוסי כהן", project: "גשר הצפון 7", location: "רחוב הרצל 25, תל אביב",
               note: "סדק בקיר הצפוני ליד החלון", ocr: "heb"),
        // Conjuncts (श्र, ल्ल, त्त, स्म), the reph (र्ग, र्ट) and nukta (ड़).
        Sample(language: "hi", user: "राजेश कुमार", project: "स्मार्ट सिटी पुल 7", location: "श्री अरविंद मार्ग 12, नई दिल्ली",
               note: "उत्तरी दीवार में खिड़की के पास दरार", ocr: "hin"),
        Sample(language: "ru", user: "Сергей Иванов", project: "Мост № 7, северный участок", location: "ул. Тверская, 12, Москва",
               note: "Трещина в северной стене у окна", ocr: "rus"),
        // Letters with two marks stacked (ễ, ị, ầ, ử, ổ).
        Sample(language: "vi", user: "Nguyễn Thị Hương", project: "Cầu số 7 – đoạn phía Bắc", location: "12 Phố Huế, Hai Bà Trưng, Hà Nội",
               note: "Vết nứt ở tường phía bắc gần cửa sổ", ocr: nil),
    ]

    static func fields(_ sample: Sample) throws -> Fields {
        var fields = Fixture.fields
        fields.user = sample.user
        fields.project = sample.project
        fields.location = sample.location
        fields.note = sample.note
        fields.words = StampWords.translated(try Catalogue.translator(sample.language))
        return fields
    }

    static var cases: [(Sample, String)] { samples.flatMap { sample in Fixture.builtInIDs.map { (sample, $0) } } }

    @Test("each built-in style in each language, landscape and portrait, matches its golden", arguments: cases)
    func golden(sample: Sample, id: String) throws {
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        for (name, width, height) in [("landscape", 480, 270), ("portrait", 270, 480)] {
            var photo = try Fixture.card(width: width, height: height)
            let report = try watermarker.stamp(&photo, template: try Fixture.template(id), fields: try Self.fields(sample))
            #expect(report.unknownGlyphs == 0, "\(sample) \(id) \(name): \(report.missingCharacters)")
            let path = TestFiles.packageRoot + "/Tests/WatermarkTests/Goldens/languages/\(sample.language)-\(id)-\(name).png"
            let problem = Golden.mismatch(photo.bitmap, golden: path)
            #expect(problem == nil, "\(problem ?? "")")
        }
    }

    /// How alike two texts are, 0…1, ignoring spaces (OCR drops and adds them): 1 − edit distance / length.
    static func likeness(_ a: String, _ b: String) -> Double {
        let x = Array(a.filter { !$0.isWhitespace }), y = Array(b.filter { !$0.isWhitespace })
        guard !x.isEmpty || !y.isEmpty else { return 1 }
        var row = Array(0...y.count)
        for i in 1...max(1, x.count) where !x.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(1, y.count) where !y.isEmpty {
                let kept = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (x[i - 1] == y[j - 1] ? 0 : 1))
                previous = kept
            }
        }
        return 1 - Double(row[y.count]) / Double(max(x.count, y.count))
    }

    /// The OCR line most like `value`, and how alike.
    static func bestLine(_ value: String, in lines: [String]) -> (index: Int, likeness: Double) {
        lines.indices.map { index in
            // A line holds the label too: compare with its part as long as the value.
            let line = lines[index].filter { !$0.isWhitespace }, count = value.filter { !$0.isWhitespace }.count
            let windows = line.count <= count ? [line] : (0...(line.count - count)).map {
                String(line.dropFirst($0).prefix(count))
            }
            return (index, windows.map { likeness(value, $0) }.max() ?? 0)
        }.max { $0.likeness < $1.likeness } ?? (0, 0)
    }

    @Test("OCR reads each value back, in the order written and each value in its own order",
          arguments: samples.filter { $0.ocr != nil })
    func readsBack(sample: Sample) throws {
        // A plain background and a large photo: what OCR reads is the layout, not the noise.
        var photo = Photo(bitmap: try #require(Bitmap(width: 2400, height: 1350)))
        for y in 0..<photo.bitmap.height { for x in 0..<photo.bitmap.width { photo.bitmap.setRGB(x: x, y: y, (128, 128, 128)) } }
        var fields = try Self.fields(sample)
        fields.code = nil
        try Watermarker(fontConfig: Fixture.fontConfig).stamp(&photo, template: try Fixture.template("site-report"), fields: fields)
        let path = try TestFiles.temporaryFolder("ocr") + "/\(sample.language).png"
        #expect(photo.bitmap.writePNG(to: path))
        let read = try ExternalTool.run("tesseract", [path, "-", "-l", sample.ocr!, "--psm", "6"])
        #expect(read.status == 0, "\(read.err)")
        let lines = read.out.split(separator: "\n").map(String.init).filter { !$0.trimmingWhitespace.isEmpty }
        var previous = -1
        for value in [sample.location, sample.note] {
            let found = Self.bestLine(value, in: lines)
            #expect(found.likeness >= 0.7, "\(sample): '\(value)' not read back in \(lines)")
            #expect(found.index > previous, "\(sample): '\(value)' read out of order in \(lines)")
            previous = found.index
            // Its words in the opposite order read worse: the value runs in its own direction.
            let words = value.split(separator: " ")
            if words.count > 2 {
                let reversed = words.reversed().joined(separator: " ")
                #expect(Self.bestLine(reversed, in: lines).likeness < found.likeness, "\(sample): '\(value)' reads reversed")
            }
        }
    }
}
