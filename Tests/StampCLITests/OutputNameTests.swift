import Testing
import Templates
@testable import StampCLI

@Suite struct OutputNameTests {
    @Test("names are one safe path component ending in .jpg", arguments: [
        ("../../etc/passwd", "_.._etc_passwd.jpg"),
        ("..", "fallback.jpg"),
        ("/", "fallback.jpg"),
        ("a\u{0}b\nc.jpg", "a_b_c.jpg"),
        (".hidden.jpeg", "hidden.jpeg"),
        ("report", "report.jpg"),
        ("  ", "fallback.jpg"),
    ])
    func sanitised(name: String, expected: String) {
        #expect(OutputName.sanitised(name, fallback: "fallback") == expected)
    }

    @Test("long names are cut to 200 bytes plus the extension")
    func long() {
        let name = OutputName.sanitised(String(repeating: "é", count: 300), fallback: "x")
        #expect(name.utf8.count <= 204 && name.hasSuffix(".jpg"))
    }

    @Test("progress line")
    func progress() {
        #expect(ProgressLine.render(done: 0, total: 10, seconds: 0, width: 10) == "[··········] 0/10")
        #expect(ProgressLine.render(done: 5, total: 10, seconds: 2, width: 10) == "[#####·····] 5/10  2.5/s  ETA 0:02")
        #expect(ProgressLine.render(done: 10, total: 10, seconds: 2, width: 10) == "[##########] 10/10  5.0/s")
        #expect(ProgressLine.clock(3723) == "1:02:03")
    }
}
