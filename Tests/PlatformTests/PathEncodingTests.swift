import Testing
import Platform

/// File names are bytes: every one survives the trip through a String, and messages show the ones
/// that are not text escaped.
@Suite struct PathEncodingTests {
    static let names: [[UInt8]] = [
        Array("photo.jpg".utf8), Array("照片.jpg".utf8),
        [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67],   // caf\xe9.jpg (Latin-1)
        [0xFF, 0xFE, 0x80, 0x2F, 0xC0, 0xAF],                // invalid lead bytes, an overlong '/'
        [0xED, 0xA0, 0x80],                                  // an encoded surrogate
        Array("\u{10FF41}x".utf8),                           // one of our own escapes, spelled out
        Array("\u{10FEFF}\u{100000}📷".utf8),                 // 4-byte scalars up to just below the escapes
        [0xF4, 0x8F, 0xBF],                                  // a 4-byte scalar cut short
    ]

    @Test("bytes → string → bytes is the identity", arguments: names)
    func roundTrip(bytes: [UInt8]) {
        #expect(PathEncoding.encode(PathEncoding.decode(bytes)) == bytes)
    }

    @Test("valid UTF-8 decodes as itself; other bytes as \\xNN in messages")
    func display() {
        #expect(PathEncoding.decode(Array("照片.jpg".utf8)) == "照片.jpg")
        #expect(PathEncoding.decode(Array("📷\u{10FEFF}.jpg".utf8)) == "📷\u{10FEFF}.jpg")
        #expect(PathEncoding.hasRawBytes(PathEncoding.decode(Array("\u{10FF41}".utf8))))
        #expect(PathEncoding.display(PathEncoding.decode([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67])) == "caf\\xE9.jpg")
        #expect(PathEncoding.display("a\nb\u{1B}[2J.jpg") == "a\\x0Ab\\x1B[2J.jpg")
        #expect(PathEncoding.display("plain.jpg") == "plain.jpg")
    }
}
