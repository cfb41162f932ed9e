import Testing
import Values

/// The small text helpers every module shares: escaping, hex digits, trimming, zero padding.
@Suite struct TextHelperTests {
    @Test("right-to-left values are isolated, so they keep their own order inside a line; others are left alone")
    func isolates() {
        #expect(Markup.escape("גשר 7") == "\u{2068}גשר 7\u{2069}")
        #expect(Markup.escape("القاهرة") == "\u{2068}القاهرة\u{2069}")
        #expect(Markup.escape("Bridge <7>") == "Bridge &lt;7&gt;")
        #expect(Markup.escape("李伟") == "李伟")
        #expect(Markup.escape(#"<b>&"x'</b>"#) == "&lt;b&gt;&amp;&quot;x&#39;&lt;/b&gt;")
    }

    @Test("hex: two lowercase digits a byte; numbers padded; code points as Unicode writes them")
    func hex() {
        #expect(Hex.lowercase([0x00, 0x0F, 0xAB, 0xFF]) == "000fabff")
        #expect(Hex.lowercase([UInt8]()) == "")
        #expect(Hex.lowercase((0...255).map(UInt8.init)).count == 512)
        #expect(Hex.padded(UInt32(0x9C0901), digits: 8) == "009c0901")
        #expect(Hex.padded(UInt64.max, digits: 8) == "ffffffffffffffff")
        #expect(Hex.padded(UInt8(0xE9), digits: 2, uppercase: true) == "E9")
        #expect(Hex.codePoint("\n") == "U+000A")
        #expect(Hex.codePoint("🏗") == "U+1F3D7")
    }

    @Test("trimming drops whitespace at both ends only", arguments: [
        ("  Canon  ", "Canon"), ("\tBearer x \r\n", "Bearer x"), ("12345\n", "12345"), ("a  b", "a  b"), ("", ""), (" \n\t ", ""),
        ("\u{00A0}Pier 4\u{2003}", "Pier 4"), ("\r\nline\r\n", "line"),
    ])
    func trimming(_ text: String, _ trimmed: String) {
        #expect(text.trimmingWhitespace == trimmed)
        #expect(text[...].trimmingWhitespace == trimmed)
    }

    @Test("zero padding")
    func padding() {
        #expect(zeroPadded(7) == "07" && zeroPadded(7, 3) == "007" && zeroPadded(1234, 2) == "1234" && zeroPadded(5, 0) == "5")
    }
}
