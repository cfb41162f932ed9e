import CSQLite

/// A value going into or coming out of SQLite.
enum SQLValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Bytes that are not text (a file name that is not UTF-8).
    case blob([UInt8])
}

/// Owns one prepared statement: prepared at creation (an error there is thrown), finalized in
/// `deinit`. Values are only ever bound, never spliced into SQL text. Keeps its connection alive.
final class SQLiteStatement {
    let handle: OpaquePointer
    private let database: SQLiteDatabase
    private let action: String

    init(database: SQLiteDatabase, sql: String, action: String) throws(CatalogError) {
        self.database = database
        self.action = action
        var prepared: OpaquePointer?
        let status = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard status == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw database.error(status, action: action)
        }
        handle = prepared
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to the parameters 1…n, after clearing what an earlier run left.
    func bind(_ values: [SQLValue]) throws(CatalogError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null:
                status = sqlite3_bind_null(handle, index)
            case .integer(let number):
                status = sqlite3_bind_int64(handle, index, number)
            case .real(let number):
                status = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                status = text.withCString { csqlite_bind_text(handle, index, $0, Int32(clamping: text.utf8.count)) }
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { csqlite_bind_blob(handle, index, $0.baseAddress, Int32(clamping: $0.count)) }
            }
            guard status == SQLITE_OK else { throw database.error(status, action: action) }
        }
    }

    /// Runs to the next row: true when there is one, false when done.
    func step() throws(CatalogError) -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(status, action: action)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ values: [SQLValue]) throws(CatalogError) {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Ends a run early, so the statement holds no lock.
    func reset() { sqlite3_reset(handle) }

    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    func columnName(_ index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The current row's value in column `index` (from 0), as SQLite stores it.
    func column(_ index: Int) -> SQLValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            // Text from a hostile file need not be UTF-8: bad bytes become U+FFFD.
            let pointer = sqlite3_column_text(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : count), as: UTF8.self))
        case SQLITE_BLOB:
            let pointer = sqlite3_column_blob(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let pointer, count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default: return .null
        }
    }

    /// The raw bytes of a text or blob column (a file name kept byte for byte).
    func bytes(_ index: Int) -> [UInt8]? {
        let column = Int32(index)
        let type = sqlite3_column_type(handle, column)
        guard type == SQLITE_TEXT || type == SQLITE_BLOB else { return nil }
        let pointer = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
