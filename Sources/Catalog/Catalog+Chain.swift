import Platform

/// Something `Catalog.verifyChain` found wrong with one row.
public struct ChainProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
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
    }

    /// The row's id and path, what is wrong, and the row before it in its chain when that is involved.
    public var id: Int
    public var path: String
    public var kind: Kind
    public var other: (id: Int, path: String)?

    public static func == (a: ChainProblem, b: ChainProblem) -> Bool {
        a.id == b.id && a.path == b.path && a.kind == b.kind && a.other?.id == b.other?.id && a.other?.path == b.other?.path
    }

    public var description: String {
        let shown = "row \(id) (\(PathEncoding.display(path)))"
        switch kind {
        case .changed: return shown + ": changed: its fields no longer match its hash"
        case .outsideChain: return shown + ": inserted: it is in no chain, and it was not logged before the chain began"
        case .missingBefore: return shown + ": deleted before it: links of its chain before this one are missing"
        case .brokenLink:
            let before = other.map { "row \($0.id) (\(PathEncoding.display($0.path)))" } ?? "the chain's start"
            return shown + ": broken link: its previous hash is not the hash of \(before); a row was inserted, moved or "
                + "re-hashed between them"
        case .unreadable: return shown + ": unreadable: its path, size, SHA-256 or command is missing or malformed"
        }
    }
}

/// What `Catalog.verifyChain` found.
public struct ChainReport: Sendable, Equatable {
    public var problems: [ChainProblem] = []
    /// Rows that are links of a chain, rows logged before the chain began, and how many chains there are.
    public var chained = 0, unchained = 0, chains = 0
    public var intact: Bool { problems.isEmpty }
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

    /// Walks every chain in the catalog (its own, and those of merged catalogs) link by link, and
    /// names each row that was changed, inserted, or has rows before it deleted. Removing the newest
    /// rows cannot show here: the head is what a signed photo records for that.
    public func verifyChain() throws(CatalogError) -> ChainReport {
        struct Row {
            let id: Int, path: String, entry: CatalogEntry, link: ChainLink, code: String?
        }
        var report = ChainReport()
        var chains: [String: [Row]] = [:]
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
                if let link = RowCoding.link(statement, columns: columns) {
                    chains[link.chain, default: []].append(Row(id: id, path: entry.path, entry: entry, link: link,
                                                               code: RowCoding.code(statement, columns: columns)))
                } else if !chained {
                    report.unchained += 1
                } else if let flag = columns.index["unchained"], let own = columns.index["row_hash"],
                          statement.column(flag) == .integer(1), statement.column(own) == .null {
                    report.unchained += 1
                } else {
                    report.problems.append(ChainProblem(id: id, path: entry.path, kind: .outsideChain))
                }
            }
        }
        report.chains = chains.count
        // A row that was updated is a new link; the link it replaced is gone, and the row after
        // that one names it: the superseding row (in any chain: a merged row finished here) vouches for the hash.
        let superseded = Set(chains.values.joined().compactMap(\.link.supersedes))
        for (chain, unordered) in chains.sorted(by: { $0.key < $1.key }) {
            let rows = unordered.sorted { ($0.link.position, $0.id) < ($1.link.position, $1.id) }
            report.chained += rows.count
            var before: Row?
            for row in rows {
                let link = row.link
                let own = Chain.hash(row.entry, code: row.code, chain: chain, position: link.position, previous: link.previous,
                                     supersedes: link.supersedes)
                if own != link.own { report.problems.append(ChainProblem(id: row.id, path: row.path, kind: .changed)) }
                let expected = before?.link.own ?? Chain.genesis
                if link.previous != expected && !superseded.contains(link.previous) {
                    let gap = link.position > (before?.link.position ?? 0) + 1
                    report.problems.append(ChainProblem(id: row.id, path: row.path, kind: gap ? .missingBefore : .brokenLink,
                                                        other: gap ? nil : before.map { ($0.id, $0.path) }))
                }
                before = row
            }
        }
        report.problems.sort { $0.id < $1.id }
        return report
    }
}
