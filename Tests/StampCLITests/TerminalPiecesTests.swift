import Testing
import Imaging
@testable import StampCLI

@Suite struct TerminalPiecesTests {
    @Test("key decoding: arrows, enter, space, escape, Ctrl-C, letters, unknown sequences skipped")
    func keys() {
        #expect(Key.decode([0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44]) == [.right, .left])
        #expect(Key.decode([0x1B, 0x4F, 0x41]) == [.up])
        #expect(Key.decode([0x0D, 0x20, 0x1B, 0x03]) == [.enter, .space, .escape, .interrupt])
        #expect(Key.decode(Array("q+-f".utf8)) == [.character("q"), .character("+"), .character("-"), .character("f")])
        #expect(Key.decode([0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x75]) == [.character("u")])  // F5, then u
    }

    @Test("the status line is cut after a whole word, with an ellipsis, and fills its width exactly")
    func statusCut() {
        let status = "Test pattern 640x360  flash off  style Classic (1/6)  zoom 1.0×  · Ana · Bridge 7"
        #expect(ShootScreen.fitted(status, width: 30) == "Test pattern 640x360  flash…")
        #expect(ShootScreen.fitted(status, width: 80) == "Test pattern 640x360  flash off  style Classic (1/6)  zoom 1.0×  · Ana…")
        #expect(ShootScreen.fitted(status, width: 200) == status)
        #expect(ShootScreen.fitted("Saved /a/very-long-folder-name/20261129.jpg", width: 20) == "Saved…")
        #expect(ShootScreen.fitted("unbrokenwordthatgoeson", width: 10) == "unbrokenw…")
        #expect(ShootScreen.bar(status, width: 30, reverse: false) == "Test pattern 640x360  flash…  ")
    }

    @Test("half blocks: letterboxed to the terminal, two pixels a cell, colours from the picture")
    func halfBlocks() throws {
        var picture = try #require(Bitmap(width: 160, height: 90))
        for y in 0..<90 { for x in 0..<160 { picture.setRGB(x: x, y: y, y < 45 ? (255, 0, 0) : (0, 0, 255)) } }
        #expect(HalfBlocks.fit(width: 160, height: 90, columns: 80, rows: 24) == (80, 44))
        #expect(HalfBlocks.fit(width: 90, height: 160, columns: 80, rows: 24) == (27, 48))
        let lines = HalfBlocks.render(picture, columns: 80, rows: 24)
        #expect(lines.count == 24)
        #expect(lines[0].allSatisfy { $0 == " " })  // the letterbox bar above (22 rows of picture)
        #expect(lines[1].contains("38;2;255;0;0;48;2;255;0;0m▀"))
        #expect(lines[22].contains("38;2;0;0;255;48;2;0;0;255m"))
        #expect(lines[1].filter { $0 == "▀" }.count == 80)
    }
}
