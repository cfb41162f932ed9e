import Testing
import Values

@Suite struct VerificationCodeTests {
    static let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    static let zeroHash = String(repeating: "0", count: 64)
    static let fields = ["date": "2026-12-03", "user": "Ana Lima", "project": "Bridge 7", "é": "ü"]

    @Test("known vectors (computed independently with Python's hashlib from the documented encoding)")
    func knownVectors() {
        #expect(VerificationCode.derive(pixelsSHA256: Self.emptyHash, fields: [:]) == "676W-MEXC-Y4")
        #expect(VerificationCode.derive(pixelsSHA256: Self.zeroHash, fields: Self.fields) == "JNKC-CEWX-TH")
        // Upper-case hex is the same hash.
        #expect(VerificationCode.derive(pixelsSHA256: Self.emptyHash.uppercased(), fields: [:]) == "676W-MEXC-Y4")
    }

    @Test("one field's value, a field's name, a field more, or one bit of the hash changes the code")
    func changes() {
        let code = VerificationCode.derive(pixelsSHA256: Self.zeroHash, fields: Self.fields)
        var other = Self.fields
        other["project"] = "Bridge 8"
        #expect(VerificationCode.derive(pixelsSHA256: Self.zeroHash, fields: other) == "T6X7-66RK-3T")
        #expect(VerificationCode.derive(pixelsSHA256: Self.zeroHash, fields: other) != code)
        other = Self.fields
        other["note"] = ""
        #expect(VerificationCode.derive(pixelsSHA256: Self.zeroHash, fields: other) != code)
        other = Self.fields
        other["users"] = other.removeValue(forKey: "user")
        #expect(VerificationCode.derive(pixelsSHA256: Self.zeroHash, fields: other) != code)
        let oneBit = String(repeating: "0", count: 63) + "1"
        #expect(VerificationCode.derive(pixelsSHA256: oneBit, fields: Self.fields) != code)
    }

    @Test("length prefixes keep a name and a value apart: user=ab is not us=erab")
    func lengthPrefixed() {
        #expect(VerificationCode.derive(pixelsSHA256: Self.zeroHash, fields: ["user": "ab"])
            != VerificationCode.derive(pixelsSHA256: Self.zeroHash, fields: ["us": "erab"]))
    }

    @Test("a code is 10 characters of the alphabet, grouped 4-4-2, and well formed")
    func shape() {
        for value in 0..<50 {
            let code = VerificationCode.derive(pixelsSHA256: Self.zeroHash, fields: ["seq": String(value)])
            #expect(code.count == 12)
            #expect(code.split(separator: "-").map(\.count) == [4, 4, 2])
            #expect(code.filter { $0 != "-" }.allSatisfy { VerificationCode.alphabet.contains($0) })
            #expect(VerificationCode.isWellFormed(code))
        }
    }

    @Test("the alphabet has no look-alikes", arguments: Array("0O1IL2Z5S8BDQGUV"))
    func noLookAlikes(_ character: Character) {
        #expect(!VerificationCode.alphabet.contains(character))
    }

    @Test("what a person types is normalised", arguments: [
        ("jnkc-cewx-th", "JNKC-CEWX-TH"), ("JNKC CEWX TH", "JNKC-CEWX-TH"), ("jnkccewxth", "JNKC-CEWX-TH"),
        (" J-N-K-C-C-E-W-X-T-H\n", "JNKC-CEWX-TH"),
    ])
    func normalised(_ typed: String, _ code: String) {
        #expect(VerificationCode.normalized(typed) == code)
        #expect(!VerificationCode.isWellFormed(typed))
    }

    @Test("what cannot be a code is refused", arguments: [
        "", "JNKC-CEWX-T", "JNKC-CEWX-THH", "JNKC-CEWX-T0", "JNKC-CEWX-TO", "JNKC_CEWX_TH", "JNKC-CEWX-TĤ",
        "../../etc/passwd", "'; DROP TABLE photos; --", String(repeating: "A", count: 100_000),
    ])
    func refused(_ typed: String) {
        #expect(VerificationCode.normalized(typed) == nil)
        #expect(!VerificationCode.isWellFormed(typed))
    }
}
