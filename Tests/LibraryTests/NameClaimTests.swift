import Foundation
import Platform
import Testing
import TestSupport
@testable import Library

#if canImport(Glibc)
import Glibc
#endif

/// Output names are claimed before the work: never two writers on one name, stale claims cleared.
@Suite struct NameClaimTests {
    static func claimed(_ outcome: NameClaim.Outcome) -> NameClaim? {
        if case .claimed(let claim) = outcome { return claim }
        return nil
    }

    @Test("a claimed name is passed over by the next claim, and free again once released")
    func exclusive() throws {
        let folder = try TestFiles.temporaryFolder("claim")
        let first = try #require(Self.claimed(try NameClaim.claim("a.jpg", in: folder, existing: .number)))
        let second = try #require(Self.claimed(try NameClaim.claim("a.jpg", in: folder, existing: .number)))
        #expect(first.name == "a.jpg")
        #expect(second.name == "a-1.jpg")
        #expect(TestFiles.files(in: folder) == [".stampcam-claim-a-1.jpg", ".stampcam-claim-a.jpg"])
        first.release()
        second.release()
        #expect(TestFiles.files(in: folder).isEmpty)
    }

    @Test("an existing file: numbered past, skipped, or replaced, as asked")
    func existing() throws {
        let folder = try TestFiles.temporaryFolder("claim")
        try TestFiles.write([1], to: folder + "/a.jpg")
        #expect(Self.claimed(try NameClaim.claim("a.jpg", in: folder, existing: .number))?.name == "a-1.jpg")
        guard case .exists(let path) = try NameClaim.claim("a.jpg", in: folder, existing: .skip) else {
            Issue.record("an existing file is not skipped")
            return
        }
        #expect(path == folder + "/a.jpg")
        #expect(Self.claimed(try NameClaim.claim("a.jpg", in: folder, existing: .replace))?.name == "a.jpg")
    }

    @Test("a name another live process claims is skipped or numbered; one of a process that is gone is taken")
    func otherProcesses() throws {
        let folder = try TestFiles.temporaryFolder("claim")
        try TestFiles.write(Array("1\n".utf8), to: folder + "/.stampcam-claim-live.jpg")  // init is always running
        guard case .exists = try NameClaim.claim("live.jpg", in: folder, existing: .skip) else {
            Issue.record("a name in another run's hands is not left to it")
            return
        }
        #expect(Self.claimed(try NameClaim.claim("live.jpg", in: folder, existing: .number))?.name == "live-1.jpg")
        try TestFiles.write(Array("999999999\n".utf8), to: folder + "/.stampcam-claim-gone.jpg")
        #expect(Self.claimed(try NameClaim.claim("gone.jpg", in: folder, existing: .skip))?.name == "gone.jpg")
    }

    @Test("a 255-byte name can be claimed (the claim file's own name is shortened)")
    func longName() throws {
        let folder = try TestFiles.temporaryFolder("claim")
        let name = String(repeating: "n", count: 251) + ".jpg"
        let claim = try #require(Self.claimed(try NameClaim.claim(name, in: folder, existing: .number)))
        #expect(try AtomicFile.write([1, 2], to: claim, replace: false) == folder + "/" + name)
        claim.release()
        #expect(TestFiles.files(in: folder) == [name])
    }

    @Test("leftovers of processes that are gone are removed; a live process's are kept")
    func leftovers() throws {
        let folder = try TestFiles.temporaryFolder("claim")
        for name in [".stampcam-999999999-abcdef", ".stampcam-claim-x.jpg", ".stampcam-1-abcdef"] {
            try TestFiles.write(Array((name.contains("claim") ? "999999999\n" : "").utf8), to: folder + "/" + name)
        }
        // A KMZ's scratch folder, with its pictures.
        try FileManager.default.createDirectory(atPath: folder + "/.stampcam-999999999-ghijkl", withIntermediateDirectories: false)
        try TestFiles.write([0xFF, 0xD8], to: folder + "/.stampcam-999999999-ghijkl/1.jpg")
        #expect(OutputFolder.removeLeftovers(in: folder) == 3)
        #expect(TestFiles.files(in: folder) == [".stampcam-1-abcdef"])
    }
}

@Suite struct NameClaimReleaseTests {
    @Test("a claim whose file cannot be removed stays held; a later release removes it")
    func releaseRetried() throws {
        let folder = try TestFiles.temporaryFolder("claim-release")
        let claim = try #require(NameClaimTests.claimed(try NameClaim.claim("a.jpg", in: folder, existing: .number)))
        let marker = folder + "/.stampcam-claim-a.jpg"
        // A folder where the claim file was: unlink fails (EISDIR) as it does in a read-only folder, also for root.
        #expect(FileSystem.remove(FilePath(marker)))
        #expect(mkdir(marker, 0o755) == 0)
        claim.release()
        #expect(!claim.isReleased, "the claim is kept while its file cannot be removed")
        #expect(FileSystem.removeFolder(FilePath(marker)))
        try TestFiles.write([0], to: marker)
        claim.release()
        #expect(claim.isReleased)
        #expect(TestFiles.files(in: folder).isEmpty)
    }
}
