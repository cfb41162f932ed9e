import Platform
import Foundation
import Library

/// One photo of a batch: where it is, what stat said of it (its size puts the largest first; its
/// identity protects it from being written over; its time stands in for a missing EXIF date), and
/// the subfolder of the output folder it goes to (mirroring the input folder it was found in).
struct BatchItem: Sendable {
    let input: String
    let status: FileStatus
    let subfolder: String
    /// Position in the order the inputs were given, from 1: `{seq}`.
    var sequence = 0
}

/// Turns the command line's inputs — files, folders (searched recursively) and `-` (a list of paths
/// on stdin) — into the batch's photos.
enum BatchInputs {
    static let jpegExtensions: Set<String> = ["jpg", "jpeg", "jpe", "jfif"]

    /// Items largest first, and one failure per input that does not exist. `skipping` is a folder
    /// not to descend into: the output folder, when it sits inside an input folder.
    static func expand(_ arguments: [String], skipping excluded: FileIdentity?,
                       standardInput: () -> [String]) -> (items: [BatchItem], missing: [(path: String, failure: Failure)]) {
        var items: [BatchItem] = [], missing: [(path: String, failure: Failure)] = []
        var seen = Set<FileIdentity>()
        let paths = arguments.flatMap { $0 == "-" ? standardInput() : [$0] }
        for path in paths {
            guard let status = FileStatus(path: path) else {
                missing.append((path, Failure(FileError.cannotRead(path: path, reason: "No such file or directory"), path: path)))
                continue
            }
            if status.isFolder {
                items += walk(path, skipping: excluded, seen: &seen)
            } else if seen.insert(status.identity).inserted {
                items.append(BatchItem(input: path, status: status, subfolder: ""))
            }
        }
        for index in items.indices { items[index].sequence = index + 1 }
        // Largest first: the long jobs start early and the batch does not end on one big photo.
        return (items.sorted { $0.status.size > $1.status.size }, missing)
    }

    /// JPEGs under `root`, by extension or by their first bytes; hidden files and `excluded` skipped.
    private static func walk(_ root: String, skipping excluded: FileIdentity?, seen: inout Set<FileIdentity>) -> [BatchItem] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var items: [BatchItem] = []
        let base = root.hasSuffix("/") ? root : root + "/"
        while let relative = walker.nextObject() as? String {
            let path = base + relative
            let name = (relative as NSString).lastPathComponent
            guard let status = FileStatus(path: path) else { continue }
            if name.hasPrefix(".") || (status.isFolder && status.identity == excluded) {
                if status.isFolder { walker.skipDescendants() }
                continue
            }
            guard !status.isFolder, isJPEG(path, name: name), seen.insert(status.identity).inserted else { continue }
            let folder = (relative as NSString).deletingLastPathComponent
            items.append(BatchItem(input: path, status: status, subfolder: folder))
        }
        return items
    }

    static func isJPEG(_ path: String, name: String) -> Bool {
        if jpegExtensions.contains((name as NSString).pathExtension.lowercased()) { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 3)) ?? Data()
        return head.count == 3 && head[head.startIndex] == 0xFF && head[head.startIndex + 1] == 0xD8
            && head[head.startIndex + 2] == 0xFF
    }

    /// Paths from stdin, one per line; blank lines ignored.
    static func readStandardInput() -> [String] {
        var paths: [String] = []
        while let line = readLine(strippingNewline: true) {
            if !line.trimmingCharacters(in: .whitespaces).isEmpty { paths.append(line) }
        }
        return paths
    }
}
