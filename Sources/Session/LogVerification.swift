import Catalog
import Library
import Platform
import Provenance

/// `log --verify`: the photo log's chain walked (`Catalog.verifyChain`), with what each photo's own
/// signed credentials recorded of the log when it was made (its `chainHead`): the logged photos at
/// their paths, and the photos under the folders given, so rows deleted — the newest too — or a
/// log rewritten by someone who knows the scheme show whenever a later photo exists.
public enum LogVerification {
    public static func verify(_ catalog: Catalog, searching folders: [String], anchor: Anchor?) throws(CatalogError) -> ChainReport {
        var unlogged: [RecordedHead] = []
        let existing = folders.filter { FileStatus(path: FilePath($0))?.isFolder == true }
        for file in PhotoFiles.list(existing, failed: { _, _ in }) {
            if let head = recordedHead(FileSystem.absolute(file.path), logged: nil) { unlogged.append(head) }
        }
        return try catalog.verifyChain(recordedHead: { recordedHead($0.path, logged: $0.sha256) }, unlogged: unlogged, anchor: anchor)
    }

    /// What the photo at `path` records of the log; nil when it cannot be read, is not the photo
    /// logged (`logged`, its SHA-256: `log --check` names that), or its credentials do not hold.
    static func recordedHead(_ path: String, logged: String?) -> RecordedHead? {
        guard let file = try? InputFile.photo(path) else { return nil }
        let bytes = file.withUnsafeBytes { Array($0) }
        let sha256 = FileDigest.sha256(bytes)
        if let logged, logged != sha256 { return nil }
        let verification = ManifestReader.verify(file: bytes, trust: TrustAnchors(), now: 0)
        guard verification.signatureValid, verification.bindingHolds else { return nil }
        return RecordedHead(path: path, sha256: sha256, head: verification.chainHead)
    }
}
