import Foundation
import Imaging
import Templates
import Testing
import TestSupport
@testable import Watermark

/// Every built-in style on every real photo of ../shared/corpus: the text reads at WCAG's 4.5:1
/// against the photo under it (an extra: skipped without the corpus).
@Suite(.needsCorpus) struct LegibilityCorpusTests {
    @Test("every style is legible on every corpus photo", arguments: Fixture.builtInIDs)
    func corpus(id: String) throws {
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        let template = try Fixture.template(id)
        var worst: (share: Double, what: String) = (1, "")
        for path in Corpus.photos {
            let photo = try Photo(jpeg: try TestFiles.bytes(path), options: LoadOptions(maxSize: 640))
            for line in try LegibilityProbe.lines(photo, template: template, fields: Fixture.fields, watermarker: watermarker)
                where line.pixels > 0 {
                if line.legible < worst.share { worst = (line.legible, "\(path.split(separator: "/").last ?? ""): \(line)") }
                #expect(line.legible >= 0.9, "\(id) on \(path): \(line)")
            }
        }
        print("\(id): the least legible line on the corpus: \(worst.what)")
    }
}
