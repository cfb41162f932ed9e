import Foundation
import Testing
@testable import Platform

@Suite struct FileContentsTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "stampcam-contents-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) } }

    @Test("a file is read whole, on either side of the head's size", arguments: [
        0, 1, 100, FileContents.headSize - 1, FileContents.headSize, FileContents.headSize + 1, 3 << 20,
    ])
    func whole(size: Int) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = Self.pattern(size)
        #expect(FileManager.default.createFile(atPath: folder + "/f", contents: Data(bytes)))
        let contents = try FileContents(path: FilePath(folder + "/f"))
        let same = contents.bytes == bytes  // (not in #expect: a failure would diff a million bytes)
        #expect(same, "\(contents.count) bytes read")
        #expect(contents.status.size == size)
    }

    @Test("a file cut short after it was opened and its size taken: the bytes that are left, no crash",
          arguments: [0, 10, FileContents.headSize, 100_000])
    func shrunk(to length: Int) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/photo.jpg"
        let bytes = Self.pattern(1 << 20)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let (fd, status) = try FileSystem.openRegular(FilePath(path))
        defer { close(fd) }
        #expect(truncate(path, off_t(length)) == 0)  // a card pulled, a copy rewritten
        let contents = try FileContents(descriptor: fd, status: status)
        let same = contents.bytes == Array(bytes.prefix(length))
        #expect(same, "\(contents.count) bytes read")
    }

    @Test("a file that grows after its size was taken: what the size said, not what came later")
    func grown() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/f"
        let bytes = Self.pattern(200_000)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let (fd, status) = try FileSystem.openRegular(FilePath(path))
        defer { close(fd) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 1, count: 50_000))
        try handle.close()
        let same = try FileContents(descriptor: fd, status: status).bytes == bytes
        #expect(same)
    }

    struct Refused: Error, Equatable {}

    @Test("check sees the head and the size first; what it throws ends the read")
    func check() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = Self.pattern(1 << 20)
        #expect(FileManager.default.createFile(atPath: folder + "/f", contents: Data(bytes)))
        var seen: (head: [UInt8], size: Int)?
        #expect(throws: Refused()) {
            try FileContents(path: FilePath(folder + "/f")) { head, size in
                seen = (Array(head), size)
                throw Refused()
            }
        }
        let head = seen?.head == Array(bytes.prefix(FileContents.headSize))
        #expect(head)
        #expect(seen?.size == 1 << 20)
    }

    @Test("a FIFO, a folder and a device are refused without blocking; a missing file says so")
    func notRegular() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/fifo", 0o600) == 0)
        #expect(throws: FileSystem.ReadError.notRegular(.fifo)) { try FileContents(path: FilePath(folder + "/fifo")) }
        #expect(throws: FileSystem.ReadError.notRegular(.folder)) { try FileContents(path: FilePath(folder)) }
        #expect(throws: FileSystem.ReadError.notRegular(.characterDevice)) { try FileContents(path: "/dev/zero") }
        #expect(throws: FileSystem.ReadError.system(.noEntry)) { try FileContents(path: FilePath(folder + "/none")) }
    }

    @Test("readStart: the first bytes, fewer for a short file")
    func readStart() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/f", contents: Data([1, 2, 3, 4, 5])))
        #expect(try FileSystem.readStart(FilePath(folder + "/f"), count: 3) == [1, 2, 3])
        #expect(try FileSystem.readStart(FilePath(folder + "/f"), count: 16) == [1, 2, 3, 4, 5])
        #expect(throws: FileSystem.ReadError.notRegular(.fifo)) {
            #expect(mkfifo(folder + "/fifo", 0o600) == 0)
            _ = try FileSystem.readStart(FilePath(folder + "/fifo"), count: 16)
        }
    }
}
