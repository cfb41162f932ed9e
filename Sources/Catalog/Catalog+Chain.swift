import Platform

/// Something `Catalog.verifyChain` found wrong with one row.
public struct ChainProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// Its fields no longer give its own hash.
        case changed
        /// It is no link of a chain, yet not flagged as logged before the chain.
        case outsideChain
        /// Links of its chain before it are gone.
        case missingBefore
        /// Its previous hash is not the own hash of the link before it (`other`).
        case brokenLink
        /// A required field cannot be read.
        case unreadable
        /// Flagged as logged before the chain, but not one of the rows recorded as such when the chain began.
        case flaggedUnchained
        /// A row recorded as logged before the chain is gone, or its fields changed (no row: id 0).
        case unchainedMissing
        /// Its photo records the log's head `head`, which the log does not hold before it.
        case headNotInLog(head: String)
        /// Flagged as logged before the chain, but its photo records the chain's head.
        case headOnUnchained
        /// A photo found on disk, made after the log's row `position` (its recorded head), that no row logs.
        case unlogged(position: Int)
    }

    /// The row's id and path, what is wrong, and the row before it in its chain when that is involved.
    public var id: Int
    public var path: String
    public var kind: Kind
    public var other: (id: Int, path: String)?

    public init(id: Int, path: String, kind: Kind, other: (id: Int, path: String)? = nil) {
        self.id = id
        self.path = path
        self.kind = kind
        self.other = other
    }

    public static func == (a: ChainProblem, b: ChainProblem) -> Bool {
        a.id == b.id && a.path == b.path && a.kind == b.kind && a.other?.id == b.other?.id && a.other?.path == b.other?.path
    }

    /// In English, whatever the run's language: `log --verify --json`'s `message`.
    public var description: String { Language.english.speaking { sentence } }

    /// What is wrong with the row, in the user's language.
    public var sentence: String {
        let shown = L("row {1} ({2})", id, PathEncoding.display(path))
        switch kind {
        case .changed: return L("{1}: changed: its fields no longer match its hash", shown)
        case .outsideChain: return L("{1}: inserted: it is in no chain, and it was not logged before the chain began", shown)
        case .missingBefore: return L("{1}: deleted before it: links of its chain before this one are missing", shown)
        case .brokenLink:
            let before = other.map { L("row {1} ({2})", $0.id, PathEncoding.display($0.path)) } ?? L("the chain's start")
            return L("{1}: broken link: its previous hash is not the hash of {2}; a row was inserted, moved or re-hashed between them", shown, before)
        case .unreadable: return L("{1}: unreadable: its path, size, SHA-256 or command is missing or malformed", shown)
        case .flaggedUnchained:
            return L("{1}: flagged as logged before the chain began, but it is not one of the rows that were (they were recorded then); it was flagged, or changed, since",
                     shown)
        case .unchainedMissing:
            return L("a row logged before the chain began is gone, or its fields were changed")
        case .headNotInLog(let head):
            return L("{1}: its photo records the log's head {2}…, which the log no longer holds before it: rows were deleted or the log was rewritten",
                     shown, head.prefix(16))
        case .headOnUnchained:
            return L("{1}: flagged as logged before the chain began, but its photo records the chain's head: it was logged after", shown)
        case .unlogged(let position):
            return L("{1}: made after row {2} of the log's chain (its photo records that head), but no row logs it: its row was deleted",
                     PathEncoding.display(path), position)
        }
    }
}

/// What a photo's signed credentials record of the photo log, read by whoever can read photos
/// (`Catalog` cannot): the head of the log when it was made.
public struct RecordedHead: Sendable, Equatable {
    public var path: String
    public var sha256: String
    /// The own hash of the log's newest link when the photo was signed; nil when it records none.
    public var head: String?

    public init(path: String, sha256: String, head: String?) {
        self.path = path
        self.sha256 = sha256
        self.head = head
    }
}

/// A head of the log taken at some moment (`log --anchor`), to prove later that nothing logged
/// before it changed: the own hash of the newest link then, and its place.
public struct Anchor: Sendable, Equatable, CustomStringConvertible {
    public var position: Int?
    public var hash: String

    public init(position: Int?, hash: String) {
        self.position = position
        self.hash = hash
    }

    /// `1234:HASH` (as `description` writes it) or the hash alone; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let last = parts.last, CatalogEntry.isDigest(String(last).lowercased()) else { return nil }
        hash = String(last).lowercased()
        if parts.count == 2 {
            guard let number = Int(parts[0]), number > 0 else { return nil }
            position = number
        } else {
            position = nil
        }
    }

    public var description: String { position.map { "\($0):\(hash)" } ?? hash }
}

/// Whether an anchor was found in the log, and the chain up to it whole.
public enum AnchorCheck: Sendable, Equatable {
    /// It is the own hash of link `position`, and no link up to it was changed, inserted or deleted.
    case intact(position: Int)
    /// It is there, but links up to it were changed, inserted or deleted.
    case broken(position: Int)
    /// No link has it (at its place): the log was rewritten, or its rows from there on deleted.
    case missing
}

/// What `Catalog.verifyChain` found.
public struct ChainReport: Sendable, Equatable {
    public var problems: [ChainProblem] = []
    /// Rows that are links of a chain, rows logged before the chain began, and how many chains there are.
    public var chained = 0, unchained = 0, chains = 0
    /// Photos whose recorded head was compared with the log.
    public var headsChecked = 0
    /// What became of the anchor asked for; nil when none was.
    public var anchor: AnchorCheck?
    /// Whether the rows logged before the chain are recorded (a catalog older than that, read as it is, has no record).
    public var unchainedRecorded = true
    public var intact: Bool { problems.isEmpty }

    public init(problems: [ChainProblem] = [], chained: Int = 0, unchained: Int = 0, chains: Int = 0) {
        self.problems = problems
        self.chained = chained
        self.unchained = unchained
        self.chains = chains
    }
}

extension Catalog {
    /// The own hash of the newest link of this catalog's chain; nil before the first row.
    public var chainHead: String? {
        get throws(CatalogError) {
            try connection.withLock { (connection) throws(CatalogError) -> String? in
                guard connection.columns.contains("row_hash") else { return nil }
                return try Chain.head(connection.database)?.own
            }
        }
    }

    /// The own hashes of every link of every chain, and each one's place: the anchors a photo's
    /// recorded head or a pasted `log --anchor` are found by.
    public func links() throws(CatalogError) -> [String: ChainLink] {
        try connection.withLock { (connection) throws(CatalogError) -> [String: ChainLink] in
            guard connection.columns.contains("row_hash") else { return [:] }
            let names = Schema.chainColumns
            let statement = try connection.database.prepare("SELECT \(names.joined(separator: ", ")) FROM photos WHERE row_hash IS NOT NULL",
                                                             action: "verify")
            let columns = RowCoding.Columns(names)
            var links: [String: ChainLink] = [:]
            while try statement.step() {
                if let link = RowCoding.link(statement, columns: columns) { links[link.own] = link }
            }
            return links
        }
    }

    /// Walks every chain in the catalog (its own, and those of merged catalogs) link by link, and
    /// names each row that was changed, inserted, or has rows before it deleted; checks the rows
    /// flagged as logged before the chain against the ones recorded when it began; and checks
    /// each photo's recorded head (`recordedHead`, asked of each row; nil when its photo cannot be
    /// read or is not the one logged): a head the log no longer holds before the photo's row shows
    /// rows deleted or the log rewritten. `unlogged` are photos found on disk: one whose head is a
    /// link of this log, but that no row logs, had its row deleted (the newest rows too).
    /// `anchor`, a head taken earlier (`log --anchor`), is looked for: the chain up to it must be
    /// whole and unchanged (`ChainReport.anchor`).
    public func verifyChain(recordedHead: (CatalogEntry) -> RecordedHead? = { _ in nil },
                            unlogged: [RecordedHead] = [], anchor: Anchor? = nil) throws(CatalogError) -> ChainReport {
        struct Row {
            let id: Int, path: String, entry: CatalogEntry, link: ChainLink, code: String?
        }
        var report = ChainReport()
        var chains: [String: [Row]] = [:]
        var flagged: [(id: Int, entry: CatalogEntry, code: String?)] = []
        var recorded: [String: Int]?
        // Rows whose stored columns are not what they are read as (a derived column changed).
        var misstored: Set<Int> = []
        try connection.withLock { (connection) throws(CatalogError) in
            let names = ["rowid"] + connection.columns
            let statement = try connection.database.prepare("SELECT \(names.joined(separator: ", ")) FROM photos ORDER BY rowid", action: "verify")
            let columns = RowCoding.Columns(names)
            let chained = connection.columns.contains("row_hash")
            while try statement.step() {
                guard case .integer(let number) = statement.column(0) else { continue }
                let id = Int(number)
                guard let entry = RowCoding.entry(statement, columns: columns) else {
                    // A catalog from before the chain has no hashes to break: its unreadable rows are the reader's to count.
                    if !chained {
                        report.unchained += 1
                        continue
                    }
                    let path = statement.bytes(1).map(PathEncoding.decode) ?? ""
                    report.problems.append(ChainProblem(id: id, path: path, kind: .unreadable))
                    continue
                }
                if chained, !RowCoding.storedAsWritten(statement, columns: columns, entry: entry) { misstored.insert(id) }
                if let link = RowCoding.link(statement, columns: columns) {
                    chains[link.chain, default: []].append(Row(id: id, path: entry.path, entry: entry, link: link,
                                                               code: RowCoding.code(statement, columns: columns)))
                } else if !chained {
                    report.unchained += 1
                } else if let flag = columns.index["unchained"], let own = columns.index["row_hash"],
                          statement.column(flag) == .integer(1), statement.column(own) == .null {
                    report.unchained += 1
                    flagged.append((id, entry, RowCoding.code(statement, columns: columns)))
                } else {
                    report.problems.append(ChainProblem(id: id, path: entry.path, kind: .outsideChain))
                }
            }
            recorded = try Self.recordedUnchained(connection.database)
        }
        report.chains = chains.count

        // The rows flagged as older than the chain must be the ones recorded as such, one for one.
        if var remaining = recorded {
            for row in flagged {
                let hash = Chain.unchainedHash(row.entry, code: row.code)
                if let count = remaining[hash], count > 0, !misstored.contains(row.id) {
                    remaining[hash] = count - 1
                } else {
                    report.problems.append(ChainProblem(id: row.id, path: row.entry.path, kind: .flaggedUnchained))
                }
            }
            for _ in 0..<remaining.values.reduce(0, +) { report.problems.append(ChainProblem(id: 0, path: "", kind: .unchainedMissing)) }
        } else if !flagged.isEmpty {
            report.unchainedRecorded = false
        }

        // A row that was updated is a new link; the link it replaced is gone, and the row after
        // that one names it: the superseding row (in any chain: a merged row finished here) vouches for the hash.
        let superseded = Set(chains.values.joined().compactMap(\.link.supersedes))
        var places: [String: ChainLink] = [:]
        for row in chains.values.joined() { places[row.link.own] = row.link }
        // Where problems were found, for the anchor.
        var damaged: [(chain: String, position: Int)] = []
        for (chain, unordered) in chains.sorted(by: { $0.key < $1.key }) {
            let rows = unordered.sorted { ($0.link.position, $0.id) < ($1.link.position, $1.id) }
            report.chained += rows.count
            var before: Row?
            for row in rows {
                let link = row.link
                let own = Chain.hash(row.entry, code: row.code, chain: chain, position: link.position, previous: link.previous,
                                     supersedes: link.supersedes)
                let problems = report.problems.count
                defer { if report.problems.count > problems { damaged.append((chain, link.position)) } }
                if own != link.own || misstored.contains(row.id) {
                    report.problems.append(ChainProblem(id: row.id, path: row.path, kind: .changed))
                }
                let expected = before?.link.own ?? Chain.genesis
                if link.previous != expected && !superseded.contains(link.previous) {
                    let gap = link.position > (before?.link.position ?? 0) + 1
                    report.problems.append(ChainProblem(id: row.id, path: row.path, kind: gap ? .missingBefore : .brokenLink,
                                                        other: gap ? nil : before.map { ($0.id, $0.path) }))
                }
                // What its photo recorded: a link of its chain before it (or one superseded since).
                if let recorded = recordedHead(row.entry) {
                    report.headsChecked += 1
                    if let head = recorded.head, !superseded.contains(head),
                       places[head].map({ $0.chain != chain || $0.position >= link.position }) ?? true {
                        report.problems.append(ChainProblem(id: row.id, path: row.path, kind: .headNotInLog(head: head)))
                    }
                }
                before = row
            }
        }
        for row in flagged {
            guard let recorded = recordedHead(row.entry) else { continue }
            report.headsChecked += 1
            if recorded.head != nil { report.problems.append(ChainProblem(id: row.id, path: row.entry.path, kind: .headOnUnchained)) }
        }
        // Photos no row logs: one made after a link of this log was logged there once.
        // By its SHA-256, not its path: a photo moved since is still logged.
        let logged = Set(chains.values.joined().map(\.entry.sha256) + flagged.map(\.entry.sha256))
        for photo in unlogged where !logged.contains(photo.sha256) {
            guard let head = photo.head, let place = places[head] else { continue }
            report.headsChecked += 1
            report.problems.append(ChainProblem(id: 0, path: photo.path, kind: .unlogged(position: place.position)))
        }
        report.problems.sort { ($0.id, $0.path) < ($1.id, $1.path) }
        if let anchor {
            if let place = places[anchor.hash], anchor.position.map({ $0 == place.position }) ?? true {
                let whole = !damaged.contains { $0.chain == place.chain && $0.position <= place.position }
                report.anchor = whole ? .intact(position: place.position) : .broken(position: place.position)
            } else {
                report.anchor = .missing
            }
        }
        return report
    }

    /// The recorded hashes of the rows logged before the chain, counted; nil for a catalog older than the record.
    private static func recordedUnchained(_ database: SQLiteDatabase) throws(CatalogError) -> [String: Int]? {
        guard try database.value("SELECT type FROM sqlite_schema WHERE name = 'unchained_rows'", action: "verify") == .text("table") else {
            return nil
        }
        let statement = try database.prepare("SELECT hash FROM unchained_rows", action: "verify")
        var counts: [String: Int] = [:]
        while try statement.step() {
            // Anything but a hash is counted as recorded and unmatched: it cannot vouch for a row.
            if case .text(let hash) = statement.column(0) { counts[hash, default: 0] += 1 } else { counts["", default: 0] += 1 }
        }
        return counts
    }
}
