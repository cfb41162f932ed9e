import Testing
@testable import StampCLI

@Suite struct ProgressLineTests {
    @Test("progress line")
    func progress() {
        #expect(ProgressLine.render(done: 0, total: 10, seconds: 0, width: 10) == "[··········] 0/10")
        #expect(ProgressLine.render(done: 5, total: 10, seconds: 2, width: 10) == "[#####·····] 5/10  2.5/s  ETA 0:02")
        #expect(ProgressLine.render(done: 10, total: 10, seconds: 2, width: 10) == "[##########] 10/10  5.0/s")
        #expect(ProgressLine.clock(3723) == "1:02:03")
    }
}
