import Testing
@testable import Platform

@Suite struct FilePathTests {
    static let latin1: [UInt8] = Array("/media/usb/caf".utf8) + [0xE9] + Array(".jpg".utf8)

    @Test("bytes that are not UTF-8 go to C unchanged, survive the String form, and show as \\xNN")
    func rawBytes() {
        let path = FilePath(bytes: Self.latin1)
        let passed = path.withCString { pointer in (0..<Self.latin1.count + 1).map { UInt8(bitPattern: pointer[$0]) } }
        #expect(passed == Self.latin1 + [0])
        #expect(FilePath(path.string) == path)
        #expect(path.description == "/media/usb/caf\\xE9.jpg")
        #expect(FilePath(bytes: Array("a\n.jpg".utf8)).description == "a\\x0A.jpg")
    }

    @Test("a NUL ends the path, as it would for the kernel")
    func nul() {
        #expect(FilePath(bytes: Array("a.jpg".utf8) + [0] + Array("b".utf8)) == "a.jpg")
    }

    @Test("components, the folder and the last name", arguments: [
        ("/a/b/photo.jpg", "/a/b", "photo.jpg"), ("photo.jpg", ".", "photo.jpg"), ("/photo.jpg", "/", "photo.jpg"),
        ("a//b/", "a", "b"), ("/", "/", nil),
    ] as [(String, String, String?)])
    func parts(path: String, folder: String, last: String?) {
        let path = FilePath(path)
        #expect(path.removingLastComponent == FilePath(folder))
        #expect(path.lastComponent == last.map { FilePath($0) })
    }

    @Test("appending puts one slash between")
    func appending() {
        #expect(FilePath("/a").appending("b.jpg") == "/a/b.jpg")
        #expect(FilePath("/a/").appending("b.jpg") == "/a/b.jpg")
        #expect(FilePath("").appending("b.jpg") == "b.jpg")
        #expect(FilePath(bytes: [0xFF]).appending("x").bytes == [0xFF, UInt8(ascii: "/"), UInt8(ascii: "x")])
    }
}
