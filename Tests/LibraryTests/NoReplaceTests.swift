import Platform
import Testing
import TestSupport
@testable import Library

/// Every way a file takes a free name — a rename that refuses to replace, a hard link, and a name
/// claimed by O_EXCL (FUSE FAT and exFAT, where there are neither) — keeps the same promises. A
/// folder is made to behave like a card's with `NoReplace.assume`; `make test-fs` runs the same
/// on real FAT and exFAT.
@Suite struct NoReplaceTests {
    static let methods: [NoReplace.Method] = [.rename, .link, .exclusiveCreate]

    /// A new folder whose file system is taken to offer no better than `method`.
    static func folder(_ method: NoReplace.Method) throws -> String {
        let folder = try TestFiles.temporaryFolder("noreplace")
        NoReplace.assume(method, for: folder)
        #expect(NoReplace.method(for: folder) == method)
        return folder
    }

    static func leftovers(_ folder: String) -> [String] {
        TestFiles.files(in: folder).filter { $0.hasPrefix(AtomicFile.tempPrefix) }
    }

    @Test("never over an existing file: a.jpg, a-1.jpg, a-2.jpg, nothing left behind", arguments: methods)
    func numbering(_ method: NoReplace.Method) throws {
        let folder = try Self.folder(method)
        try TestFiles.write([9], to: folder + "/a.jpg")
        #expect(try AtomicFile.write([1], directory: folder, name: "a.jpg") == folder + "/a-1.jpg")
        #expect(try AtomicFile.write([2], directory: folder, name: "a.jpg") == folder + "/a-2.jpg")
        #expect(try TestFiles.bytes(folder + "/a.jpg") == [9])
        #expect(try TestFiles.bytes(folder + "/a-2.jpg") == [2])
        #expect(try AtomicFile.write([3], directory: folder, name: "a.jpg", overwrite: true) == folder + "/a.jpg")
        #expect(try TestFiles.bytes(folder + "/a.jpg") == [3])
        #expect(TestFiles.files(in: folder) == ["a-1.jpg", "a-2.jpg", "a.jpg"])
    }

    @Test("a claimed name is written, staged or not, and the claim goes with the temp file", arguments: methods)
    func claimed(_ method: NoReplace.Method) throws {
        let folder = try Self.folder(method)
        let claim = try #require(NameClaimTests.claimed(try NameClaim.claim("a.jpg", in: folder, existing: .number)))
        // The claim holds our id and the name, whichever way it was made.
        #expect(NameClaim.owner(folder + "/.stampcam-claim-a.jpg") == ProcessID.current)
        #expect(NameClaim.claimedName(folder + "/.stampcam-claim-a.jpg") == "a.jpg")
        #expect(try AtomicFile.write([1, 2], to: claim, replace: false) == folder + "/a.jpg")
        claim.release()
        let next = try #require(NameClaimTests.claimed(try NameClaim.claim("a.jpg", in: folder, existing: .number)))
        #expect(next.name == "a-1.jpg")
        let staged = try AtomicFile.stage([3], for: next)
        #expect(try staged.place(replace: false) == folder + "/a-1.jpg")
        next.release()
        #expect(TestFiles.files(in: folder) == ["a-1.jpg", "a.jpg"])
        #expect(try TestFiles.bytes(folder + "/a-1.jpg") == [3])
    }

    @Test("a name another program took meanwhile is refused, and its file kept", arguments: methods)
    func takenMeanwhile(_ method: NoReplace.Method) throws {
        let folder = try Self.folder(method)
        let claim = try #require(NameClaimTests.claimed(try NameClaim.claim("a.jpg", in: folder, existing: .number)))
        try TestFiles.write([7], to: folder + "/a.jpg")
        #expect(throws: FileError.cannotCreate(path: folder + "/a.jpg", reason: "another program created this file meanwhile")) {
            try AtomicFile.write([1], to: claim, replace: false)
        }
        claim.release()
        #expect(try TestFiles.bytes(folder + "/a.jpg") == [7])
        #expect(Self.leftovers(folder).isEmpty)
    }

    @Test("a name another run is writing (its claim held) is passed over by a file that is not claimed")
    func claimHeldByOther() throws {
        let folder = try Self.folder(.exclusiveCreate)
        try TestFiles.write(Array("1\na.json\n".utf8), to: folder + "/.stampcam-claim-a.json")  // init is always running
        #expect(try AtomicFile.write([1], directory: folder, name: "a.json") == folder + "/a-1.json")
        #expect(!FileSystem.exists(FilePath(folder + "/a.json")))
    }

    @Test("killed between claiming a name by O_EXCL and renaming over it: the next run removes the empty file and the claim")
    func crashLeftovers() throws {
        let folder = try Self.folder(.exclusiveCreate)
        // What a run killed at that moment leaves: its claim, and an empty file under the name.
        try TestFiles.write(Array("999999999\nIMG 1.jpg\n".utf8), to: folder + "/.stampcam-claim-IMG 1.jpg")
        try TestFiles.write([], to: folder + "/IMG 1.jpg")
        // A photo that was finished before its run was killed is kept.
        try TestFiles.write(Array("999999999\nIMG 2.jpg\n".utf8), to: folder + "/.stampcam-claim-IMG 2.jpg")
        try TestFiles.write([0xFF, 0xD8], to: folder + "/IMG 2.jpg")
        #expect(OutputFolder.removeLeftovers(in: folder) == 2)
        #expect(TestFiles.files(in: folder) == ["IMG 2.jpg"])

        // Found by the claim of the same name instead (a resumed batch skips what exists): taken, not skipped.
        try TestFiles.write(Array("999999999\nIMG 1.jpg\n".utf8), to: folder + "/.stampcam-claim-IMG 1.jpg")
        try TestFiles.write([], to: folder + "/IMG 1.jpg")
        let claim = try #require(NameClaimTests.claimed(try NameClaim.claim("IMG 1.jpg", in: folder, existing: .skip)))
        #expect(claim.name == "IMG 1.jpg")
        #expect(try AtomicFile.write([1], to: claim, replace: false) == folder + "/IMG 1.jpg")
        claim.release()
        #expect(TestFiles.files(in: folder) == ["IMG 1.jpg", "IMG 2.jpg"])
    }

    @Test("a claim cut off before its id was written (empty) is stale; an empty file of the user's without a claim is left alone")
    func emptyClaim() throws {
        let folder = try Self.folder(.exclusiveCreate)
        try TestFiles.write([], to: folder + "/.stampcam-claim-a.jpg")
        try TestFiles.write([], to: folder + "/b.jpg")
        #expect(NameClaimTests.claimed(try NameClaim.claim("a.jpg", in: folder, existing: .skip))?.name == "a.jpg")
        #expect(OutputFolder.removeLeftovers(in: folder) == 0)
        #expect(FileSystem.exists(FilePath(folder + "/b.jpg")))
    }

    @Test("a missing folder (a card pulled out) is one cannot-create error naming the photo, whichever the way")
    func folderGone() throws {
        for method in Self.methods {
            let folder = try Self.folder(method)
            FileSystem.removeFolder(FilePath(folder))
            #expect(throws: FileError.self) { try NameClaim.claim("a.jpg", in: folder, existing: .number) }
            do {
                _ = try NameClaim.claim("a.jpg", in: folder, existing: .number)
            } catch {
                #expect(error == .cannotCreate(path: folder + "/a.jpg", reason: "No such file or directory"))
            }
        }
    }

    @Test("a folder gone, or another one in its place (a card pulled out): a batch is told why no more photos can go there")
    func lostFolder() throws {
        let folder = try TestFiles.temporaryFolder("lost")
        let identity = FileIdentity(path: FilePath(folder))
        #expect(OutputFolder.lost(folder, identity: identity) == nil)
        #expect(TestFiles.files(in: folder).isEmpty)  // the probe leaves nothing
        // Moved away rather than removed, so the new folder cannot get its inode.
        try FileSystem.rename(FilePath(folder), to: FilePath(folder + ".pulled"))
        #expect(OutputFolder.lost(folder, identity: identity) == "the folder is gone (was the card or disk removed?)")
        try FileSystem.makeFolders(FilePath(folder))
        #expect(OutputFolder.lost(folder, identity: identity) == "another file system is mounted there now (was the card or disk removed?)")
    }

    @Test("EPERM is never called a permission problem")
    func notPermittedWords() {
        #expect(Errno.notPermitted.reason == "operation not permitted")
        #expect(Errno.permission.reason == "permission denied")
    }
}
