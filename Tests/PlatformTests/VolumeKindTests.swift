import Testing
@testable import Platform

/// What statfs's magic numbers say about where stampcam writes.
@Suite struct VolumeKindTests {
    @Test("cards, FUSE and network file systems are told apart from a local disk", arguments: [
        (UInt64(0x4d44), VolumeKind.fat), (0x2011_bab0, .exfat), (0x6573_5546, .fuse), (0x6969, .network),
        (0xff53_4d42, .network), (0xef53, .local), (0x0102_1994, .local),
    ])
    func magic(_ magic: UInt64, _ kind: VolumeKind) {
        #expect(VolumeKind(magic: magic) == kind)
    }

    @Test("the folder the tests run in is on a file system statfs can name")
    func here() {
        #expect(VolumeKind(of: "/") != nil)
        #expect(VolumeKind(of: "/no/such/folder") == nil)
    }
}
