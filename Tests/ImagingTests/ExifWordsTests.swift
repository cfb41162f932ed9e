import Testing
@testable import Imaging

/// libexif's jargon becomes words a user can act on.
@Suite struct ExifWordsTests {
    @Test("a maker note libexif cannot parse is said to be kept, not 'corrupt'")
    func makerNote() {
        #expect(ExifBlock.plain("Too much tags (4352) in Canon MakerNote")
            == "the camera's maker notes are in a layout that could not be read (Too much tags (4352) in Canon MakerNote); they are kept as they are")
        #expect(ExifBlock.plain("Tag 0x0110 has invalid size") == "corrupt EXIF: Tag 0x0110 has invalid size")
    }
}
