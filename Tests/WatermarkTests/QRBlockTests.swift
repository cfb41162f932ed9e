import Foundation
import Imaging
import Templates
import Testing
import TestSupport
import Watermark

/// A template's `qr` block: the photo's verification code and picture hash as a QR code a phone
/// reads (zbarimg is the independent reader).
@Suite struct QRBlockTests {
    static let hash = String(repeating: "ab", count: 32)

    static func stamped(_ fields: Fields, id: String = "evidence") throws -> String {
        var photo = try Fixture.card(width: 1600, height: 900)
        try Watermarker(fontConfig: Fixture.fontConfig).stamp(&photo, template: try Fixture.template(id), fields: fields)
        let path = try TestFiles.temporaryFolder("qr") + "/stamped.png"
        #expect(photo.bitmap.writePNG(to: path))
        return path
    }

    @Test("evidence's QR code reads as stampcam:CODE;sha256=HASH")
    func decodes() throws {
        var fields = Fixture.fields
        fields.pixelsSHA256 = Self.hash
        let read = try ExternalTool.run("zbarimg", ["-q", "--raw", try Self.stamped(fields)])
        #expect(read.status == 0, "\(read.err)")
        #expect(read.out.trimmingCharacters(in: .whitespacesAndNewlines) == "stampcam:K7MN-4XRT-9P;sha256=" + Self.hash)
    }

    @Test("before the code is known (a preview) there is no QR code, and the rest of the stamp is drawn")
    func noCodeNoQR() throws {
        var fields = Fixture.fields
        fields.code = nil
        let read = try ExternalTool.run("zbarimg", ["-q", "--raw", try Self.stamped(fields)])
        #expect(read.status != 0 && read.out.isEmpty)
    }

    @Test("a block has a logo or a QR code, not both; a QR code too small to read is refused")
    func refused() throws {
        for json in [#"{"version": 1, "id": "q", "blocks": [{"lines": ["{code}"], "qr": {}, "logo": {"file": "a.png"}}]}"#,
                     #"{"version": 1, "id": "q", "blocks": [{"lines": ["{code}"], "qr": {"size": 0.01}}]}"#,
                     #"{"version": 1, "id": "q", "blocks": [{"lines": ["{code}"], "qr": {"file": "a.png"}}]}"#] {
            #expect(throws: TemplateError.self, "\(json)") { try Template(json: Array(json.utf8), file: "q.json", folder: "/q") }
        }
        let plain = try Template(json: Array(#"{"version": 1, "id": "q", "blocks": [{"lines": ["{code}"], "qr": {}}]}"#.utf8),
                                 file: "q.json", folder: "/q")
        #expect(plain.blocks[0].logo == Template.Logo(file: "", size: 0.14, position: .right, qr: true))
    }
}
