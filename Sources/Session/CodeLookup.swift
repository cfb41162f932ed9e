import Catalog
import Library
import Platform
import Values

/// What the public check page may say about a code typed off a photo: whether the organisation's
/// photo log holds a photo with it, the facts the organisation chose to show, and the photo's
/// file for a thumbnail (only while it is the file that was logged).
public enum CodeLookup {
    /// The facts a check page may show, chosen by the organisation (`serve --verify-shows`).
    public enum Fact: String, Sendable, CaseIterable {
        case time, project, site, user, place
    }

    public enum Answer: Sendable, Equatable {
        /// The text cannot be a code (wrong length, a character codes do not use).
        case malformed
        case notFound(code: String)
        /// The code as stamped, each chosen fact of the newest photo logged with it, and that photo's path.
        case found(code: String, facts: [String: String], photo: String)
    }

    /// Looks `typed` up in the catalog at `catalog` (none there: no photo has it).
    public static func find(_ typed: String, catalog: String, shows: Set<Fact>) throws(CatalogError) -> Answer {
        guard typed.count <= 64, let code = VerificationCode.normalized(typed) else { return .malformed }
        guard let status = FileStatus(path: FilePath(catalog)), status.isRegular, status.size > 0 else { return .notFound(code: code) }
        let log = try Catalog(reading: catalog)
        guard let entry = try log.photos(code: code).last else { return .notFound(code: code) }
        var facts: [String: String] = [:]
        for fact in shows {
            let value: String?
            switch fact {
            case .time: value = entry.time?.iso8601
            case .project: value = entry.project
            case .site: value = entry.site
            case .user: value = entry.user
            case .place: value = entry.location
            }
            if let value, !value.isEmpty { facts[fact.rawValue] = value }
        }
        return .found(code: code, facts: facts, photo: entry.path)
    }

    /// The logged photo's bytes when the file at `path` is still the one logged with `sha256`; nil otherwise.
    public static func loggedPhoto(_ typed: String, catalog: String) -> FileContents? {
        guard let code = VerificationCode.normalized(typed), let log = try? Catalog(reading: catalog),
              let entry = try? log.photos(code: code).last,
              let file = try? FileContents(path: FilePath(entry.path), limit: 256 << 20), file.isWhole,
              file.withUnsafeBytes({ FileDigest.sha256($0) }) == entry.sha256 else { return nil }
        return file
    }
}
