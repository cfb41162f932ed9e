import Catalog
import Library
import Platform

/// `log --check`: whether the logged photos are still where the catalog says, as they were written.
public enum CatalogCheck {
    public enum Finding: Sendable, Equatable {
        case unchanged(path: String)
        /// A file is there, but not the one written (its SHA-256 differs).
        case changed(path: String)
        /// Nothing there; no file with its bytes was found either.
        case missing(path: String)
        /// Nothing there, but a file with exactly its bytes is at `to`.
        case moved(from: String, to: String)
    }

    /// One finding per entry, in order. A missing photo is looked for (same size, then same
    /// SHA-256) in its own folder and under `folders`.
    public static func check(_ entries: [CatalogEntry], searching folders: [String]) -> [Finding] {
        var findings: [Finding] = []
        var missing: [Int] = []
        for entry in entries {
            guard let status = FileStatus(path: FilePath(entry.path)), status.isRegular else {
                missing.append(findings.count)
                findings.append(.missing(path: entry.path))
                continue
            }
            let same = status.size == entry.size && sha256(of: entry.path) == entry.sha256
            findings.append(same ? .unchanged(path: entry.path) : .changed(path: entry.path))
        }
        guard !missing.isEmpty else { return findings }
        // Files that could be the missing ones, by size; hashed only when the size matches.
        let places = folders + Set(missing.map { CatalogEntry.folder(of: entries[$0].path) }).sorted()
        let logged = Set(entries.map(\.path))
        var bySize: [Int: [String]] = [:]
        for file in PhotoFiles.list(places.filter { FileStatus(path: FilePath($0))?.isFolder == true }, failed: { _, _ in }) {
            let path = FileSystem.absolute(file.path)
            if !logged.contains(path) { bySize[file.status.size, default: []].append(path) }
        }
        var hashes: [String: String] = [:]
        var claimed = Set<String>()
        for index in missing {
            let entry = entries[index]
            for candidate in bySize[entry.size] ?? [] where !claimed.contains(candidate) {
                let hash = hashes[candidate] ?? sha256(of: candidate)
                hashes[candidate] = hash
                if hash == entry.sha256 {
                    claimed.insert(candidate)
                    findings[index] = .moved(from: entry.path, to: candidate)
                    break
                }
            }
        }
        return findings
    }

    private static func sha256(of path: String) -> String? {
        guard let file = try? InputFile.photo(path) else { return nil }
        return file.withUnsafeBytes { FileDigest.sha256($0) }
    }
}
