#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Platform
import Values
import Synchronization

/// The photo log: an SQLite file with one row per photo stampcam wrote. Safe to share: several
/// threads of one process and several processes (two `apply` runs and a `serve`) write the same file
/// at once — WAL mode, and each write waits its turn for up to a few seconds. Every value goes in
/// through a bound parameter; a file made by someone else is read as hostile (no functions run from
/// its schema, a value is at most 1 MB, rows that do not make sense are left out).
public final class Catalog: Sendable {
    /// The schema this stampcam writes.
    public static var schemaVersion: Int { Schema.current }

    public let path: String
    let connection: Mutex<Connection>

    /// The file's open connection and the statements kept prepared on it.
    final class Connection {
        let database: SQLiteDatabase
        /// The columns the file's `photos` table has that this stampcam knows (all of them, but in
        /// an older catalog opened to read from).
        let columns: [String]
        var insert: SQLiteStatement?

        init(database: SQLiteDatabase, columns: [String]) {
            self.database = database
            self.columns = columns
        }
    }

    /// Opens the catalog at `path` to read and write, creating it (and its folder) when missing,
    /// and bringing an older one up to the current schema.
    public init(path: String) throws(CatalogError) {
        self.path = path
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            do { try FileSystem.makeFolders(FilePath(String(path[..<slash]))) } catch {
                throw .cannotOpen(path: path, reason: "its folder cannot be made: \(error.reason)")
            }
        }
        if let status = FileStatus(path: FilePath(path)) {
            guard status.isRegular else { throw .cannotOpen(path: path, reason: "it is \(status.kind), not a file") }
        } else {
            // SQLite would only say "unable to open database file".
            do { try FileSystem.canWrite(FilePath(Self.folder(of: path))) } catch {
                throw .cannotOpen(path: path, reason: "its folder cannot be written to: \(error.reason)")
            }
        }
        let volume = VolumeKind(of: FilePath(Self.folder(of: path)))
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        // Before anything else: a file that is another program's database is left as it is.
        try Self.checkOwner(database, allowEmpty: true)
        // Two processes making one new catalog at once can meet SQLite's deadlock guard (SQLITE_BUSY
        // at once, without the busy wait, while the file still has a rollback journal): the one that
        // lost tries again until the usual wait has passed.
        let deadline = WallClock.monotonic() + Double(SQLiteDatabase.busyTimeoutMilliseconds) / 1000
        while true {
            do throws(CatalogError) {
                if Self.usesWAL(on: volume) {
                    // WAL: readers never wait for a writer, and writers of several processes take turns.
                    // (A file system that cannot do WAL keeps the rollback journal: slower, as safe.)
                    _ = try database.value("PRAGMA journal_mode = WAL", action: "open")
                    try database.execute("PRAGMA synchronous = NORMAL", action: "open")
                } else {
                    // The rollback journal, with a sync at each step (FULL: NORMAL is safe only in WAL
                    // mode against a power cut, which a card pulled out is). It needs only file locks.
                    _ = try database.value("PRAGMA journal_mode = DELETE", action: "open")
                    try database.execute("PRAGMA synchronous = FULL", action: "open")
                }
                try Self.migrate(database)
                break
            } catch {
                guard case .busy = error, WallClock.monotonic() < deadline else { throw error }
                WallClock.sleep(0.01)
            }
        }
        connection = Mutex(Connection(database: database, columns: Schema.columns + Schema.chainColumns))
    }

    /// Opens the catalog at `path` only to read from it (`log --merge`): nothing in the file is
    /// changed, and an older schema is read as it is.
    public init(reading path: String) throws(CatalogError) {
        self.path = path
        guard let status = FileStatus(path: FilePath(path)) else {
            throw .cannotOpen(path: path, reason: Errno.current.reason)
        }
        guard status.isRegular else { throw .cannotOpen(path: path, reason: "it is \(status.kind), not a file") }
        var database = try SQLiteDatabase(path: path, mode: .readOnly)
        do {
            try Self.checkOwner(database, allowEmpty: false)
        } catch .cannotOpen(let path, let reason) {
            // A catalog in WAL mode is read with an index file beside it (-shm), made on first read.
            guard let refused = Self.writeRefusal(Self.folder(of: path)) else { throw .cannotOpen(path: path, reason: reason) }
            guard refused == .readOnly else {
                throw .cannotOpen(path: path, reason: "its folder cannot be written to (\(refused.reason)), and reading it needs a file "
                    + "beside it (\(FilePath(path).lastComponent?.string ?? path)-shm); make the folder writable, or copy the catalog")
            }
            // On a read-only file system nobody can change the file: SQLite may read it without one.
            database = try SQLiteDatabase(path: path, mode: .immutable)
            try Self.checkOwner(database, allowEmpty: false)
        }
        let version = try database.integer("PRAGMA user_version", action: "open")
        guard version <= Schema.current else {
            throw .newerVersion(path: path, version: version, supported: Schema.current)
        }
        // Only a real table is read: a view of that name could compute rows without end.
        guard try database.value("SELECT type FROM sqlite_schema WHERE name = 'photos'", action: "open") == .text("table") else {
            throw .notACatalog(path: path, reason: "it has no table of photos")
        }
        let info = try database.prepare("SELECT name FROM pragma_table_info('photos')", action: "open")
        var present = Set<String>()
        while try info.step() { if case .text(let name) = info.column(0) { present.insert(name) } }
        guard ["path", "size", "sha256", "command"].allSatisfy(present.contains) else {
            throw .notACatalog(path: path, reason: "its table of photos lacks the columns of one")
        }
        connection = Mutex(Connection(database: database, columns: (Schema.columns + Schema.chainColumns).filter(present.contains)))
    }

    /// Whether a catalog on `volume` is kept in WAL mode. Only on a disk of this machine: WAL's
    /// index is memory the processes share through a mapped file (`-shm`), which SQLite documents
    /// as not working over a network file system, and FUSE may not share either; and a card (FAT,
    /// exFAT) is carried to other machines and its files copied one by one, while rows not yet
    /// checkpointed live in the `-wal` file beside the catalog. The rollback journal keeps every
    /// committed row in the catalog file itself and needs only file locks (which the kernel keeps
    /// for FAT and FUSE alike).
    static func usesWAL(on volume: VolumeKind?) -> Bool {
        volume == .local || volume == nil
    }

    /// The folder a catalog file is in.
    private static func folder(of path: String) -> String {
        path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    }

    /// Why this process may not create files in `folder`; nil when it may.
    private static func writeRefusal(_ folder: String) -> Errno? {
        do { try FileSystem.canWrite(FilePath(folder)) } catch { return error }
        return nil
    }

    /// Refuses a file that belongs to another program: a database with tables but without
    /// stampcam's application id. An empty file (a new catalog) passes when `allowEmpty`.
    private static func checkOwner(_ database: SQLiteDatabase, allowEmpty: Bool) throws(CatalogError) {
        // One statement, so one snapshot: read apart, another stampcam creating the catalog at that
        // moment could commit in between (no id yet, then its tables), and it would look foreign.
        let owner = try database.prepare("SELECT (SELECT application_id FROM pragma_application_id()), (SELECT count(*) FROM sqlite_schema)",
                                         action: "open")
        guard try owner.step(), case .integer(let id) = owner.column(0), case .integer(let count) = owner.column(1) else {
            throw .notACatalog(path: database.path, reason: "its header cannot be read")
        }
        let application = Int(id), objects = Int(count)
        guard application != Int(Schema.applicationID) else { return }
        if objects == 0 && application == 0 {
            if allowEmpty { return }
            throw .notACatalog(path: database.path, reason: "it is empty")
        }
        throw .notACatalog(path: database.path, reason: "it is another program's database")
    }

    /// Runs the schema steps from the file's version to the current one, in one transaction; another
    /// process doing the same at the same moment waits, then finds the work done.
    private static func migrate(_ database: SQLiteDatabase) throws(CatalogError) {
        let found = try database.integer("PRAGMA user_version", action: "open")
        if found == Schema.current { return }
        guard found < Schema.current else {
            throw .newerVersion(path: database.path, version: found, supported: Schema.current)
        }
        try database.transaction(action: "schema upgrade") { () throws(CatalogError) in
            let version = try database.integer("PRAGMA user_version", action: "schema upgrade")
            guard version < Schema.current else { return }
            try checkOwner(database, allowEmpty: true)
            for step in Schema.steps[version...] { try database.execute(step, action: "schema upgrade") }
            if version < Schema.unchainedRecorded { try Chain.recordUnchained(database) }
            _ = try database.value("PRAGMA user_version = \(Schema.current)", action: "schema upgrade")
            _ = try database.value("PRAGMA application_id = \(Schema.applicationID)", action: "schema upgrade")
        }
    }

    /// The schema version of the file as opened.
    public var version: Int {
        get throws(CatalogError) {
            try connection.withLock { (connection) throws(CatalogError) -> Int in
                try connection.database.integer("PRAGMA user_version", action: "read")
            }
        }
    }

    // MARK: writing

    /// Logs one photo. A row with the same path and SHA-256 is the same photo: it is kept, unless
    /// it was only rebuilt from the photo's XMP and this one was logged by the command that wrote
    /// it, or it lacks the kept original this one names (a save finished once the disk had room).
    /// Returns whether the catalog changed. Every row added or changed becomes the newest link of
    /// the catalog's hash chain (`verifyChain`).
    @discardableResult
    public func add(_ entry: CatalogEntry) throws(CatalogError) -> Bool {
        try connection.withLock { (connection) throws(CatalogError) -> Bool in
            // The head is read and the link written in one transaction: another process may be adding too.
            try connection.database.transaction(action: "write") { () throws(CatalogError) -> Bool in
                try Self.insert(entry, link: nil, into: connection)
            }
        }
    }

    /// Logs many photos in one transaction (`--rebuild`, `--merge`); returns how many changed the catalog.
    @discardableResult
    public func add(_ entries: [CatalogEntry]) throws(CatalogError) -> Int {
        try add(entries.map { ($0, nil) })
    }

    /// Adds rows, each either chained here (`nil`) or kept as a link of another catalog's chain (a merge).
    private func add(_ rows: [(CatalogEntry, MergedLink?)]) throws(CatalogError) -> Int {
        try connection.withLock { (connection) throws(CatalogError) -> Int in
            try connection.database.transaction(action: "write") { () throws(CatalogError) -> Int in
                var changed = 0
                for (entry, link) in rows where try Self.insert(entry, link: link, into: connection) { changed += 1 }
                return changed
            }
        }
    }

    /// Inserts or updates the row under the add rules, then links it: a row logged here becomes the
    /// newest link of this catalog's chain (an updated row a new link naming the one it supersedes);
    /// a merged row keeps its own chain's link, and never replaces a row that is a link already.
    private static func insert(_ entry: CatalogEntry, link merged: MergedLink?, into connection: Connection) throws(CatalogError) -> Bool {
        let database = connection.database
        let key = [RowCoding.path(entry.path), SQLValue.text(entry.sha256)]
        let existing = try database.prepare("SELECT row_hash FROM photos WHERE path = ? AND sha256 = ?", action: "write")
        try existing.bind(key)
        var earlier: String?
        if try existing.step(), case .text(let hash) = existing.column(0) { earlier = hash }
        if merged != nil, earlier != nil { return false }
        let head = merged == nil ? try Chain.head(database) : nil
        try insertStatement(connection).run(RowCoding.values(entry))
        guard database.changes > 0 else { return false }
        let update = try database.prepare("""
            UPDATE photos SET code = ?, chain = ?, link = ?, previous_hash = ?, supersedes = ?, row_hash = NULL, unchained = ?
            WHERE path = ? AND sha256 = ?
            """, action: "write")
        let code = entry.code.map { SQLValue.text($0) } ?? .null
        switch merged {
        case .link(let link)?:
            try update.run([code, .text(link.chain), .integer(Int64(link.position)), .text(link.previous),
                            link.supersedes.map { .text($0) } ?? .null, .null] + key)
            let own = try database.prepare("UPDATE photos SET row_hash = ? WHERE path = ? AND sha256 = ?", action: "write")
            try own.run([.text(link.own)] + key)
        case .unchained?:
            try update.run([code, .null, .null, .null, .null, .integer(1)] + key)
            // A row from a catalog older than chains joins the recorded set, as stampcam merged it.
            try Chain.recordUnchained(database, path: key[0], sha256: key[1])
        case nil:
            let chain = try Chain.identity(database)
            try update.run([code, .text(chain), .integer(Int64((head?.position ?? 0) + 1)), .text(head?.own ?? Chain.genesis),
                            earlier.map { .text($0) } ?? .null, .null] + key)
            try Chain.seal(database, path: key[0], sha256: key[1])
        }
        return true
    }

    private static func insertStatement(_ connection: Connection) throws(CatalogError) -> SQLiteStatement {
        if let prepared = connection.insert { return prepared }
        let columns = Schema.columns
        let updates = columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let placeholders = columns.map { $0 == "logged_at" ? "coalesce(?, CAST(strftime('%s', 'now') AS INTEGER))" : "?" }
        let statement = try connection.database.prepare("""
            INSERT INTO photos (\(columns.joined(separator: ", "))) VALUES (\(placeholders.joined(separator: ", ")))
            ON CONFLICT (path, sha256) DO UPDATE SET \(updates)
            WHERE (photos.command = 'rebuild' AND excluded.command <> 'rebuild')
               OR (photos.original_path IS NULL AND excluded.original_path IS NOT NULL AND excluded.command <> 'rebuild')
            """, action: "write")
        connection.insert = statement
        return statement
    }

    /// Copies every row of the catalog at `path` into this one (`log --merge`), a few hundred rows
    /// a transaction (another writer waits for one batch, not for the whole file). Rows already
    /// here (the same path and SHA-256) are not doubled, so merging twice adds nothing.
    public func merge(from path: String) throws(CatalogError) -> MergeCount {
        let source = try Catalog(reading: path)
        var count = MergeCount()
        count.chainProblems = try source.verifyChain().problems
        var batch: [(CatalogEntry, MergedLink?)] = []
        var failure: CatalogError?
        count.unreadable = try source.forEachLinked(CatalogFilter(), zone: nil) { entry, link in
            guard failure == nil else { return }
            batch.append((entry, link.map(MergedLink.link) ?? .unchained))
            guard batch.count == Self.batchSize else { return }
            do throws(CatalogError) { count.added += try add(batch) } catch { failure = error }
            count.read += batch.count
            batch.removeAll(keepingCapacity: true)
        }
        if let failure { throw failure }
        count.added += try add(batch)
        count.read += batch.count
        return count
    }

    /// Rows a transaction when many are added.
    public static let batchSize = 500

    /// What a merge did.
    public struct MergeCount: Sendable, Equatable {
        /// Rows read from the other catalog, rows added (or that completed a rebuilt row), rows left
        /// out because they did not make sense (a hostile or damaged file).
        public var read = 0, added = 0, unreadable = 0
        /// What `verifyChain` found wrong in the other catalog (its rows are merged all the same, as they are).
        public var chainProblems: [ChainProblem] = []
    }

    /// A merged row's place: a link of its own catalog's chain, or a row from before chains.
    private enum MergedLink {
        case link(ChainLink)
        case unchained
    }

    // MARK: reading

    /// Rows read, and how many rows were left out because they did not make sense.
    public struct Rows: Sendable {
        public var entries: [CatalogEntry] = []
        public var unreadable = 0
    }

    /// The photos `filter` lets through, in the order they were taken (those without a time last);
    /// times without a zone are read in `zone` as it says.
    public func entries(_ filter: CatalogFilter = CatalogFilter(), zone: WallTimeZone? = nil) throws(CatalogError) -> Rows {
        var rows = Rows()
        rows.unreadable = try forEach(filter, zone: zone) { rows.entries.append($0) }
        // A zone given now can move a camera time without one away from where it was logged.
        if zone != nil {
            let order = rows.entries.indices.sorted { a, b in
                switch (rows.entries[a].instant, rows.entries[b].instant) {
                case let (x?, y?): return x != y ? x < y : a < b
                case (_?, nil): return true
                case (nil, _?): return false
                case (nil, nil): return a < b
                }
            }
            rows.entries = order.map { rows.entries[$0] }
        }
        return rows
    }

    /// The photos whose stamp shows `code`, typed as a person reads it off a photo (`k7mn 4xrt 9p`
    /// finds `K7MN-4XRT-9P`); none for text that cannot be a code (`VerificationCode.normalized`).
    public func photos(code typed: String) throws(CatalogError) -> [CatalogEntry] {
        guard let code = VerificationCode.normalized(typed) else { return [] }
        var filter = CatalogFilter()
        filter.code = code
        return try entries(filter).entries
    }

    /// Calls `body` with each photo `filter` lets through, in the order they were logged as taken;
    /// returns how many rows were left out as unreadable. `body` must not use this catalog (it is
    /// locked meanwhile).
    @discardableResult
    public func forEach(_ filter: CatalogFilter = CatalogFilter(), zone: WallTimeZone? = nil,
                        _ body: (CatalogEntry) -> Void) throws(CatalogError) -> Int {
        try forEachLinked(filter, zone: zone) { entry, _ in body(entry) }
    }

    /// `forEach` with each row's chain link (nil for a row from before the chain).
    private func forEachLinked(_ filter: CatalogFilter, zone: WallTimeZone?,
                               _ body: (CatalogEntry, ChainLink?) -> Void) throws(CatalogError) -> Int {
        try connection.withLock { (connection) throws(CatalogError) -> Int in
            let query = Self.query(filter, columns: connection.columns, rezoned: zone != nil)
            let statement = try connection.database.prepare(query.sql, action: "read")
            try statement.bind(query.values)
            var unreadable = 0
            let columns = RowCoding.Columns(connection.columns)
            while try statement.step() {
                guard var entry = RowCoding.entry(statement, columns: columns) else {
                    unreadable += 1
                    continue
                }
                zone?.read(&entry)
                if filter.matches(entry) { body(entry, RowCoding.link(statement, columns: columns)) }
            }
            return unreadable
        }
    }

    /// The SELECT for `filter`: time and a box around `near` narrow the rows in SQL (the indexes
    /// help); `CatalogFilter.matches` decides exactly. `rezoned`: times without a zone are read in
    /// another zone than the one logged, so time leaves them to the exact test.
    private static func query(_ filter: CatalogFilter, columns: [String], rezoned: Bool) -> (sql: String, values: [SQLValue]) {
        var conditions: [String] = [], values: [SQLValue] = []
        let timed = columns.contains("time_utc"), located = columns.contains("latitude") && columns.contains("longitude")
        let unzoned = !rezoned ? "" : columns.contains("zone_assumed") ? " OR time_utc IS NULL OR zone_assumed = 1" : " OR time_utc IS NULL"
        if let since = filter.since, timed {
            conditions.append("(time_utc >= ?\(unzoned))")
            values.append(.integer(Int64(since)))
        }
        if let until = filter.until, timed {
            conditions.append("(time_utc < ?\(unzoned))")
            values.append(.integer(Int64(until)))
        }
        if let code = filter.code, columns.contains("code") {
            conditions.append("code = ?")
            values.append(.text(code))
        }
        if let near = filter.near, located {
            // Degrees of latitude are all the same length; a degree of longitude shrinks towards the poles.
            let degrees = near.metres / GeoDistance.earthRadius * 180 / Double.pi
            conditions.append("latitude BETWEEN ? AND ?")
            values += [.real(near.latitude - degrees), .real(near.latitude + degrees)]
            let reach = abs(near.latitude) + degrees
            if reach < 89 {
                let longitudeDegrees = degrees / cos(reach * Double.pi / 180)
                // Near the antimeridian the box would wrap around: longitude is then left to the exact test.
                if near.longitude - longitudeDegrees > -180 && near.longitude + longitudeDegrees < 180 {
                    conditions.append("longitude BETWEEN ? AND ?")
                    values += [.real(near.longitude - longitudeDegrees), .real(near.longitude + longitudeDegrees)]
                }
            }
        }
        let condition = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let order = timed ? " ORDER BY time_utc IS NULL, time_utc, rowid" : " ORDER BY rowid"
        return ("SELECT \(columns.joined(separator: ", ")) FROM photos" + condition + order, values)
    }

    /// How many photos the catalog holds.
    public func count() throws(CatalogError) -> Int {
        try connection.withLock { (connection) throws(CatalogError) -> Int in
            try connection.database.integer("SELECT count(*) FROM photos", action: "read")
        }
    }

    /// What SQLite's `PRAGMA integrity_check` finds wrong: empty when the file is sound.
    public func integrityProblems() throws(CatalogError) -> [String] {
        try connection.withLock { (connection) throws(CatalogError) -> [String] in
            let statement = try connection.database.prepare("PRAGMA integrity_check", action: "check")
            var problems: [String] = []
            while try statement.step() {
                if case .text(let line) = statement.column(0), line != "ok" { problems.append(line) }
            }
            return problems
        }
    }
}
