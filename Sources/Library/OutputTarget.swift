import Platform
import Templates

/// Where a command's photos go: a folder, or one file in a folder (`-o photo.jpg` with one photo,
/// as ImageMagick and fswebcam users expect). Decided once from what the user typed.
public enum OutputTarget: Sendable, Equatable {
    case folder(String)
    case file(folder: String, name: String)

    /// `path` as the user typed it: a name ending in .jpg or .jpeg (any case) that is not a folder
    /// names one file; anything else names a folder. A trailing slash says folder, and is dropped.
    public init(parsing path: String) {
        var path = path
        if path.count > 1 && path.hasSuffix("/") {
            while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
            self = .folder(path)
            return
        }
        let lower = path.lowercased()
        guard lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg"), FileStatus(path: FilePath(path))?.isFolder != true else {
            self = .folder(path)
            return
        }
        guard let slash = path.lastIndex(of: "/") else {
            self = .file(folder: ".", name: path)
            return
        }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        self = .file(folder: folder, name: String(path[path.index(after: slash)...]))
    }

    /// The folder the photos (or the one file) are written in.
    public var folder: String {
        switch self {
        case .folder(let folder), .file(let folder, _): return folder
        }
    }

    /// The one file's name; nil for a folder.
    public var fileName: String? {
        if case .file(_, let name) = self { return name }
        return nil
    }

    /// The path as it names the target: the folder, or the file in it.
    public var path: String {
        switch self {
        case .folder(let folder): return folder
        case .file(let folder, let name): return folder.hasSuffix("/") ? folder + name : folder + "/" + name
        }
    }

    /// A name template that is exactly the one file's name (its braces are not variables); nil for a
    /// folder. It wins over a name template given as well (from a config file, say).
    public var nameTemplate: TextTemplate? {
        fileName.map { TextTemplate(literal: $0) }
    }
}
