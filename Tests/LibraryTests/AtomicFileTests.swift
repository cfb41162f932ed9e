import Platform
import Testing
import TestSupport
@testable import Library

@Suite struct AtomicFileTests {
    @Test("writes whole files and leaves no temp file behind")
    func writes() throws {
        let folder = try TestFiles.temporaryFolder()
        let path = try AtomicFile.write([1, 2, 3], directory: folder, name: "a.jpg")
        #expect(path == folder + "/a.jpg")
        #expect(try TestFiles.bytes(path) == [1, 2, 3])
        #expect(TestFiles.files(in: folder) == ["a.jpg"])
    }

    @Test("staged bytes take their name only when placed; staged and dropped, they leave nothing")
    func staged() throws {
        let folder = try TestFiles.temporaryFolder()
        let claim = try #require(NameClaimTests.claimed(try NameClaim.claim("a.jpg", in: folder, existing: .number)))
        let staged = try AtomicFile.stage([1, 2, 3], for: claim)
        #expect(!FileSystem.exists(FilePath(folder + "/a.jpg")), "not under its name before it is placed")
        #expect(try staged.place(replace: false) == folder + "/a.jpg")
        #expect(try TestFiles.bytes(folder + "/a.jpg") == [1, 2, 3])
        claim.release()
        // Dropped before it is placed (a failed save): the temp file goes with it.
        let other = try #require(NameClaimTests.claimed(try NameClaim.claim("b.jpg", in: folder, existing: .number)))
        do { _ = try AtomicFile.stage([4], for: other) }
        other.release()
        #expect(TestFiles.files(in: folder).filter { $0.hasPrefix(".stampcam-") && !$0.hasPrefix(".stampcam-claim") } == [])
        #expect(!FileSystem.exists(FilePath(folder + "/b.jpg")))
    }

    @Test("a staged file whose name another program took meanwhile is refused, not written over")
    func stagedNameTaken() throws {
        let folder = try TestFiles.temporaryFolder()
        let claim = try #require(NameClaimTests.claimed(try NameClaim.claim("a.jpg", in: folder, existing: .number)))
        let staged = try AtomicFile.stage([1], for: claim)
        try TestFiles.write([9], to: folder + "/a.jpg")  // not through a claim: another program
        #expect(throws: FileError.self) { try staged.place(replace: false) }
        #expect(try TestFiles.bytes(folder + "/a.jpg") == [9])
    }

    @Test("never overwrites unless asked: a.jpg, a-1.jpg, a-2.jpg")
    func numbering() throws {
        let folder = try TestFiles.temporaryFolder()
        try AtomicFile.write([1], directory: folder, name: "a.jpg")
        #expect(try AtomicFile.write([2], directory: folder, name: "a.jpg") == folder + "/a-1.jpg")
        #expect(try AtomicFile.write([3], directory: folder, name: "a.jpg") == folder + "/a-2.jpg")
        #expect(try TestFiles.bytes(folder + "/a.jpg") == [1])
        #expect(try AtomicFile.write([4], directory: folder, name: "a.jpg", overwrite: true) == folder + "/a.jpg")
        #expect(try TestFiles.bytes(folder + "/a.jpg") == [4])
        #expect(TestFiles.files(in: folder) == ["a-1.jpg", "a-2.jpg", "a.jpg"])
    }

    @Test("never replaces a protected input: refused with overwrite, numbered past without")
    func protectsInputs() throws {
        let folder = try TestFiles.temporaryFolder()
        try TestFiles.write([9, 9], to: folder + "/in.jpg")
        let protected: Set = [try #require(FileIdentity(path: FilePath(folder + "/in.jpg")))]
        #expect(throws: FileError.wouldReplaceInput(path: folder + "/in.jpg")) {
            try AtomicFile.write([1], directory: folder, name: "in.jpg", overwrite: true, protected: protected)
        }
        #expect(try AtomicFile.write([1], directory: folder, name: "in.jpg", protected: protected) == folder + "/in-1.jpg")
        #expect(try TestFiles.bytes(folder + "/in.jpg") == [9, 9])
        #expect(TestFiles.files(in: folder) == ["in-1.jpg", "in.jpg"])
    }

    @Test("a missing folder is a cannot-create error naming the target")
    func missingFolder() {
        #expect(throws: FileError.cannotCreate(path: "/nonexistent-stampcam/a.jpg", reason: "No such file or directory")) {
            try AtomicFile.write([1], directory: "/nonexistent-stampcam", name: "a.jpg")
        }
    }

    @Test("numbered names keep the extension")
    func numberedNames() {
        #expect(AtomicFile.numbered("d/photo.jpg", 2) == "d/photo-2.jpg")
        #expect(AtomicFile.numbered("d.x/photo", 1) == "d.x/photo-1")
        #expect(AtomicFile.numbered("d/.hidden", 1) == "d/.hidden-1")
    }
}

@Suite struct InputFileTests {
    @Test("reads what is there; names what is not")
    func reading() throws {
        let folder = try TestFiles.temporaryFolder()
        try TestFiles.write([1, 2], to: folder + "/x")
        #expect(try InputFile.read(folder + "/x") == [1, 2])
        #expect(throws: FileError.cannotRead(path: folder + "/none", reason: "No such file or directory")) {
            try InputFile.read(folder + "/none")
        }
        #expect(throws: FileError.cannotRead(path: folder, reason: "a folder, not a photo file")) {
            try InputFile.read(folder)
        }
    }
}
