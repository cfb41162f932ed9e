import Testing
@testable import Library

/// Known answers from FIPS 180-2: the records, `log --check` and `restamp` compare these digests.
@Suite struct FileDigestTests {
    static let answers: [([UInt8], String)] = [
        (Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ([], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ]

    @Test("SHA-256 of the standard test messages")
    func knownAnswers() {
        for (message, digest) in Self.answers { #expect(FileDigest.sha256(message) == digest) }
    }
}
