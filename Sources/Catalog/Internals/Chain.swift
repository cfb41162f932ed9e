import CCrypto
import Values

/// The catalog's hash chain: how a row's own hash is made, and the steps that link a new row.
/// The encoding is described in docs/provenance.md ("The photo log's chain"); changing it breaks
/// every chain ever written, so it only ever gains a new version tag.
enum Chain {
    /// The previous hash of a chain's first link.
    static let genesis = String(repeating: "0", count: 64)

    /// Names the encoding, so a later one can never be read as this one.
    static let version = "stampcam log chain 1"

    /// A row's own hash: SHA-256 over the version tag, the row's fields as `RowCoding.values` gives
    /// them, its code, chain id, place, previous hash and the hash it supersedes; each one a type
    /// byte, an 8-byte big-endian length and the bytes, so no two rows encode alike.
    static func hash(_ entry: CatalogEntry, code: String?, chain: String, position: Int, previous: String, supersedes: String?) -> String {
        var bytes: [UInt8] = []
        func append(_ tag: UInt8, _ payload: [UInt8]) {
            bytes.append(tag)
            withUnsafeBytes(of: UInt64(payload.count).bigEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: payload)
        }
        func append(_ value: SQLValue) {
            switch value {
            case .null: append(0, [])
            case .integer(let integer): append(1, withUnsafeBytes(of: integer.bigEndian) { Array($0) })
            case .real(let real): append(2, withUnsafeBytes(of: real.bitPattern.bigEndian) { Array($0) })
            case .text(let text): append(3, Array(text.utf8))
            case .blob(let blob): append(4, blob)
            }
        }
        append(.text(version))
        RowCoding.values(entry).forEach(append)
        append(code.map { .text($0) } ?? .null)
        append(.text(chain))
        append(.integer(Int64(position)))
        append(.text(previous))
        append(supersedes.map { .text($0) } ?? .null)
        return sha256(bytes)
    }

    private static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let done = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest fails only when memory runs out; an empty hash then matches no link.
        guard done == 1, length == 32 else { return "" }
        return Hex.lowercase(digest)
    }

    /// This catalog's chain id.
    static func identity(_ database: SQLiteDatabase) throws(CatalogError) -> String {
        guard case .text(let id) = try database.value("SELECT id FROM chain_identity LIMIT 1", action: "write") else {
            throw .damaged(path: database.path, reason: "its chain has no id (the table chain_identity is empty)")
        }
        return id
    }

    /// The newest link of this catalog's chain; nil before the first.
    static func head(_ database: SQLiteDatabase) throws(CatalogError) -> ChainLink? {
        let statement = try database.prepare("""
            SELECT chain, link, previous_hash, supersedes, row_hash FROM photos
            WHERE chain = (SELECT id FROM chain_identity LIMIT 1) ORDER BY link DESC LIMIT 1
            """, action: "read")
        guard try statement.step() else { return nil }
        return RowCoding.link(statement, columns: RowCoding.Columns(["chain", "link", "previous_hash", "supersedes", "row_hash"]))
    }

    /// The hash that records a row logged before the chain (`unchained_rows`): its fields as a
    /// link's own hash takes them, in no chain and at no place, so it can never equal a link's.
    static func unchainedHash(_ entry: CatalogEntry, code: String?) -> String {
        hash(entry, code: code, chain: "", position: 0, previous: genesis, supersedes: nil)
    }

    /// Records every row flagged unchained (run once, by the schema step that makes the table).
    static func recordUnchained(_ database: SQLiteDatabase) throws(CatalogError) {
        try recordUnchained(database, condition: "unchained = 1", values: [])
    }

    /// Records the unchained row `path`, `sha256` (a row merged from a catalog older than chains).
    static func recordUnchained(_ database: SQLiteDatabase, path: SQLValue, sha256: SQLValue) throws(CatalogError) {
        try recordUnchained(database, condition: "path = ? AND sha256 = ?", values: [path, sha256])
    }

    /// Records the rows matching `condition` as read back, so the hash is the one `verifyChain` computes.
    private static func recordUnchained(_ database: SQLiteDatabase, condition: String, values: [SQLValue]) throws(CatalogError) {
        let names = Schema.columns + Schema.chainColumns
        let statement = try database.prepare("SELECT \(names.joined(separator: ", ")) FROM photos WHERE \(condition)", action: "write")
        try statement.bind(values)
        let columns = RowCoding.Columns(names)
        let insert = try database.prepare("INSERT INTO unchained_rows VALUES (?)", action: "write")
        while try statement.step() {
            // An unreadable row is named by `verifyChain` as it is.
            guard let entry = RowCoding.entry(statement, columns: columns) else { continue }
            try insert.run([.text(unchainedHash(entry, code: RowCoding.code(statement, columns: columns)))])
        }
    }

    /// Computes and stores the own hash of the row `path`, `sha256`, whose link columns are set.
    static func seal(_ database: SQLiteDatabase, path: SQLValue, sha256: SQLValue) throws(CatalogError) {
        let names = Schema.columns + Schema.chainColumns
        let statement = try database.prepare("SELECT \(names.joined(separator: ", ")) FROM photos WHERE path = ? AND sha256 = ?", action: "write")
        try statement.bind([path, sha256])
        let columns = RowCoding.Columns(names)
        guard try statement.step(), let entry = RowCoding.entry(statement, columns: columns),
              let link = RowCoding.link(statement, columns: columns, sealed: false) else {
            throw .damaged(path: database.path, reason: "a row just written cannot be read back")
        }
        let own = hash(entry, code: RowCoding.code(statement, columns: columns), chain: link.chain, position: link.position,
                       previous: link.previous, supersedes: link.supersedes)
        let update = try database.prepare("UPDATE photos SET row_hash = ? WHERE path = ? AND sha256 = ?", action: "write")
        try update.run([.text(own), path, sha256])
    }
}
