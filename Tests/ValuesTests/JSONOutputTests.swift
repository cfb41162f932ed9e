import Testing
import Values

@Suite struct JSONOutputTests {
    struct Sample: Encodable {
        let zeta: Int
        let alpha: String
        let absent: String?
        let list: [Double]
    }

    @Test("keys sorted, strings escaped as JSON needs, slashes and other text as they are, whole numbers without a point")
    func line() throws {
        let sample = Sample(zeta: -3, alpha: "quote \" backslash \\ newline \n tab \t bell \u{7} é 山 a/b", absent: nil, list: [1.5, 2, 0])
        #expect(try JSONOutput.line(sample)
            == #"{"alpha":"quote \" backslash \\ newline \n tab \t bell \u0007 é 山 a/b","list":[1.5,2,0],"zeta":-3}"#)
    }

    @Test("what it writes, the strict reader reads back")
    func readBack() throws {
        let text = "quote \" backslash \\ controls \u{1}\u{1F}\u{7F} \u{2028} 😀"
        let bytes = try JSONOutput.encoded(["k": text, "z": "/"], pretty: true)
        #expect(try JSONValue(parsing: bytes) == .object(["k": .string(text), "z": .string("/")]))
        #expect(String(decoding: bytes, as: UTF8.self).contains("\n"), "pretty output is indented over lines")
    }

    @Test("a number that is not finite is refused, not written as something else")
    func notFinite() {
        #expect(throws: (any Error).self) { try JSONOutput.line([Double.infinity]) }
        #expect(throws: (any Error).self) { try JSONOutput.line([Double.nan]) }
    }
}
