import Imaging
import Library
import Platform

/// One photo of a batch: where it is, what stat said of it (its size puts the largest first; its
/// identity protects it from being written over; its time stands in for a missing EXIF date), and
/// the subfolder of the output folder it goes to (mirroring the input folder it was found in).
public struct ApplyItem: Sendable {
    public let input: String
    public let status: FileStatus
    public let subfolder: String
    /// Position in the order the inputs were given, from 1: `{seq}`.
    public var sequence = 0
}

/// Turns the inputs — files, folders (searched recursively) and `-` (a list of paths on standard
/// input) — into the batch's photos. Names are bytes (see `PathEncoding`): a photo whose name is not
/// UTF-8 is found and stamped like any other.
public struct ApplyInputs: Sendable {
    /// What a folder is searched for, as a message names it.
    static let lookedFor = ".jpg .jpeg .heic .png"

    public var items: [ApplyItem] = []
    /// Inputs that cannot be stamped, with why: missing, not a regular file.
    public var failures: [(input: String, error: FileError)] = []
    /// Things skipped on purpose that the user should hear about (output folders of earlier runs).
    public var notes: [String] = []

    /// `excluded` is a folder not to descend into: the output folder, when it sits inside an input.
    public init(_ arguments: [String], excluding excluded: FileIdentity?, standardInput: () -> [String]) {
        var seen = Set<FileIdentity>()
        let paths = arguments.flatMap { $0 == "-" ? standardInput() : [$0] }
        for path in paths {
            guard let status = FileStatus(path: FilePath(path)) else {
                failures.append((path, .cannotRead(path: path, reason: Errno.current.reason)))
                continue
            }
            if status.isFolder {
                if OutputFolder.isMarked(path) {
                    failures.append((path, .cannotRead(path: path, reason:
                        "this folder holds photos stampcam stamped (it has a \(OutputFolder.markerName) file); they are not stamped twice")))
                    continue
                }
                let before = (items.count, failures.count, notes.count)
                walk(path, relative: "", excluded: excluded, seen: &seen)
                if (items.count, failures.count, notes.count) == before {
                    failures.append((path, .noPhotos(folder: path, looked: Self.lookedFor)))
                }
            } else if !status.isRegular {
                failures.append((path, .cannotRead(path: path, reason: "\(status.kind), not a photo file")))
            } else if seen.insert(status.identity).inserted {
                items.append(ApplyItem(input: path, status: status, subfolder: ""))
            }
        }
        for index in items.indices { items[index].sequence = index + 1 }
        // Largest first: the long jobs start early and the batch does not end on one big photo.
        items.sort { $0.status.size > $1.status.size }
    }

    /// Photos under `folder` (JPEG, HEIC, PNG: by extension or by their first bytes), depth first
    /// in name order; hidden entries, `excluded` and folders holding stampcam's own output are left out.
    private mutating func walk(_ folder: String, relative: String, excluded: FileIdentity?, seen: inout Set<FileIdentity>) {
        let names: [String]
        do { names = try FileSystem.list(FilePath(folder)).sorted { PathEncoding.encode($0).lexicographicallyPrecedes(PathEncoding.encode($1)) } } catch {
            failures.append((folder, .cannotRead(path: folder, reason: error.reason)))
            return
        }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        for name in names where !name.hasPrefix(".") {
            let path = base + name
            // lstat first: a symbolic link to a folder is not followed (no loops); one to a file is.
            guard let entry = FileStatus(linkAt: FilePath(path)) else { continue }
            if entry.isFolder {
                guard entry.identity != excluded else { continue }
                if OutputFolder.isMarked(path) {
                    notes.append("\(PathEncoding.display(path)): skipped: it holds photos stampcam stamped earlier")
                    continue
                }
                walk(path, relative: relative.isEmpty ? name : relative + "/" + name, excluded: excluded, seen: &seen)
                continue
            }
            let looksLikePhoto = ImageFormat.named(name) != nil
            guard let status = FileStatus(path: FilePath(path)) else {
                // A link to nothing, or to itself: say which, as stat does.
                if looksLikePhoto { failures.append((path, .cannotRead(path: path, reason: "a symbolic link: \(Errno.current.reason)"))) }
                continue
            }
            guard status.isRegular else {
                // A FIFO or a device named like a photo is reported, never opened (it could block or never end).
                if looksLikePhoto && !status.isFolder {
                    failures.append((path, .cannotRead(path: path, reason: "\(status.kind), not a photo file")))
                }
                continue
            }
            guard looksLikePhoto || Self.startsLikePhoto(path), seen.insert(status.identity).inserted else { continue }
            items.append(ApplyItem(input: path, status: status, subfolder: relative))
        }
    }

    /// The first bytes of a JPEG, HEIC or PNG file.
    static func startsLikePhoto(_ path: String) -> Bool {
        guard let start = try? FileSystem.readStart(FilePath(path), count: 16) else { return false }
        return ImageFormat.sniff(start) != nil
    }
}
