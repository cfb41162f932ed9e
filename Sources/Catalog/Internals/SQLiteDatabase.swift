import CSQLite
import Platform

/// Owns one SQLite connection: opened and configured at creation (a failure there is an error,
/// never a half-open handle), closed in `deinit`. Not thread-safe: `Catalog` keeps it behind a lock.
final class SQLiteDatabase {
    enum Mode {
        case readWrite, readOnly
        /// Read only, from a file on a read-only file system: nobody can change it, so SQLite may
        /// skip the WAL index (`-shm`) it cannot create there.
        case immutable
    }

    let handle: OpaquePointer
    /// The file, for messages.
    let path: String

    /// How long a write waits for another process (another `apply`, `serve`) to finish its own.
    static let busyTimeoutMilliseconds: Int32 = 5000
    /// The most bytes one value may have: a hostile file cannot make us allocate more for a field.
    static let valueLimit: Int32 = 1 << 20

    init(path: String, mode: Mode) throws(CatalogError) {
        self.path = path
        var opened: OpaquePointer?
        let flags = mode == .readWrite ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY
        // NOMUTEX: the connection is used under Catalog's lock only. A relative name goes as ./name,
        // and only `immutable` is a URI, every byte of its name but letters, digits and `/._-~`
        // escaped: a file called "file:…?mode=rw" is never read as a URI with options.
        let name = path.hasPrefix("/") ? path : "./" + path
        let uri = mode == .immutable ? SQLITE_OPEN_URI : 0
        let opening = mode == .immutable ? Self.immutableURI(name) : FilePath(name)
        let status = opening.withCString {
            sqlite3_open_v2($0, &opened, flags | uri | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE, nil)
        }
        guard status == SQLITE_OK, let opened else {
            let reason = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(opened)
            throw .cannotOpen(path: path, reason: reason)
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Self.valueLimit)
        sqlite3_limit(handle, SQLITE_LIMIT_ATTACHED, 0)
        guard csqlite_set_defensive(handle) == SQLITE_OK else {
            throw .cannotOpen(path: path, reason: "SQLite's defensive mode is not available")
        }
        // A file may come from anyone (`--merge`, `--catalog`): its schema must not run functions
        // or virtual tables on our behalf.
        try execute("PRAGMA trusted_schema = OFF", action: "open")
    }

    deinit { sqlite3_close_v2(handle) }

    /// `file:NAME?immutable=1`, NAME's bytes percent-escaped.
    private static func immutableURI(_ name: String) -> FilePath {
        let plain = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-~".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes = Array("file:".utf8)
        for byte in PathEncoding.encode(name) {
            if plain.contains(byte) { bytes.append(byte) } else { bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]] }
        }
        return FilePath(bytes: bytes + Array("?immutable=1".utf8))
    }

    /// The error for a failed call, from SQLite's own code and message.
    func error(_ status: Int32, action: String) -> CatalogError {
        let message = String(cString: sqlite3_errmsg(handle))
        switch status & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .busy(path: path, seconds: Double(Self.busyTimeoutMilliseconds) / 1000)
        case SQLITE_NOTADB:
            return .notACatalog(path: path, reason: "it is not an SQLite database")
        case SQLITE_CORRUPT:
            return .damaged(path: path, reason: message)
        case SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH:
            return .cannotOpen(path: path, reason: message)
        case SQLITE_FULL:
            return .failed(path: path, action: action, reason: "no space left on the device")
        default:
            return .failed(path: path, action: action, reason: message)
        }
    }

    /// Runs fixed SQL (schema, pragmas): never text from a user or a file.
    func execute(_ sql: StaticString, action: String) throws(CatalogError) {
        let status = sqlite3_exec(handle, sql.description, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status, action: action) }
    }

    /// Prepares one statement of fixed SQL; values go in through `bind`.
    func prepare(_ sql: String, action: String) throws(CatalogError) -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql, action: action)
    }

    /// The first value a query without parameters gives (`PRAGMA user_version`); the statement is
    /// done with before this returns (one left running would hold its read lock and block a COMMIT).
    func value(_ sql: String, action: String) throws(CatalogError) -> SQLValue {
        let statement = try prepare(sql, action: action)
        defer { statement.reset() }
        guard try statement.step() else { return .null }
        let value = statement.column(0)
        while try statement.step() {}
        return value
    }

    func integer(_ sql: String, action: String) throws(CatalogError) -> Int {
        guard case .integer(let number) = try value(sql, action: action) else { return 0 }
        return Int(number)
    }

    /// Runs `body` in a write transaction taken at once (BEGIN IMMEDIATE: it waits for other writers
    /// up front instead of failing half-way), committed when it returns, rolled back when it throws.
    func transaction<Result>(action: String, _ body: () throws(CatalogError) -> Result) throws(CatalogError) -> Result {
        try execute("BEGIN IMMEDIATE", action: action)
        do {
            let result = try body()
            try execute("COMMIT", action: action)
            return result
        } catch {
            sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Rows the last statement inserted, updated or deleted.
    var changes: Int { Int(sqlite3_changes(handle)) }
}
