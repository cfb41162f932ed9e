#if canImport(Glibc)
import Glibc
#endif
import Catalog
import Library
import Platform
import Session
import Values

/// `stampcam log`: the photo log. Lists the logged photos (filtered), checks them against the disk,
/// rebuilds rows from the photos' own records, and merges other catalogs into this one.
enum LogCommand: Command {
    static let json = Flag("json", help: marked("option", "print one JSON object per photo (every field)"))
    static let check = Flag("check", help: marked("option", "say which logged photos moved, are missing or changed; DIR... are also searched for moved ones"))
    static let rebuild = Flag("rebuild", help: marked("option", "add the photos stampcam stamped under DIR... to the catalog, from their own records"))
    static let merge = Flag("merge", help: marked("option", "add the photos of the catalogs CATALOG... (one per scheduler task, say) to this one"))
    static let verify = Flag("verify", help: marked("option", "walk the log's hash chain and name each row deleted, inserted or changed since it was logged, checking each photo's recorded head; photos under DIR... are checked too"))
    static let anchor = Flag("anchor", help: marked("option", "print the log's head to keep elsewhere (an e-mail, a ticket); with --verify, ANCHOR (the first argument) must still be in the log with nothing before it changed"))

    static let spec = CommandSpec(
        name: "log",
        usage: "log [--project P] [--user U] [--since DATE] [--until DATE] [--near LAT,LON,METRES] [--style ID] [--json] | "
            + "log --check [DIR...] | log --verify [--anchor ANCHOR] [DIR...] | log --anchor | log --rebuild DIR... | log --merge CATALOG...",
        summary: marked("command", "The photo log: every photo shoot, apply and restamp wrote, with when, who, where and which project."),
        options: [CatalogOptions.catalog] + CatalogOptions.filters + [CatalogOptions.tz, json, check, verify, anchor, rebuild, merge])

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let modes = [check, verify, rebuild, merge].filter(options.flag)
        if options.flag(anchor), let other = modes.first, other.spec.long != "verify" {
            throw UsageError.badValue(option: "--anchor", value: "with --\(other.spec.long)", expected: "given together (it goes alone, or with --verify)")
        }
        guard modes.count <= 1 else {
            throw UsageError.badValue(option: "--\(modes[1].spec.long)", value: "with --\(modes[0].spec.long)", expected: "given together (choose one)")
        }
        let path = try CatalogOptions.path(options, context: context)
        switch modes.first?.spec.long {
        case "rebuild"?: return try runRebuild(options, catalogPath: path, context: context)
        case "merge"?: return try runMerge(options, catalogPath: path, context: context)
        case "check"?: return try runCheck(options, catalogPath: path, context: context)
        case "verify"?: return try runVerify(options, catalogPath: path, context: context)
        case nil where options.flag(anchor): return try printAnchor(options, catalogPath: path, context: context)
        default:
            if let stray = options.positionals.first {
                throw UsageError.badValue(option: "log", value: stray, expected: "an argument it takes (DIR or CATALOG go with --check, --rebuild or --merge)")
            }
            return try list(options, catalogPath: path, context: context)
        }
    }

    /// The filtered rows of the catalog; none (with a note) when there is no catalog yet.
    static func entries(_ options: ParsedOptions, catalogPath: String, console: Console) throws -> [CatalogEntry] {
        let filter = try CatalogOptions.filter(options)
        guard let catalog = try CatalogOptions.openForReading(catalogPath) else {
            console.err("stampcam: " + noPhotosYet(catalogPath))
            return []
        }
        let rows = try catalog.entries(filter, zone: try CatalogOptions.wallTimeZone(options))
        if rows.unreadable > 0 {
            console.err("stampcam: " + L("warning: {1}", PathEncoding.display(catalogPath) + ": "
                + Ln("{1} row could not be read and is left out", "{1} rows could not be read and are left out", rows.unreadable, rows.unreadable)))
        }
        let assumed = rows.entries.filter(\.zoneIsAssumed).count
        if assumed > 0 {
            let zone = options.values["tz"]?.last.map { "\($0) (--tz)" }
                ?? L("the zone assumed when logged (the system's); --tz ZONE reads them in another")
            console.err("stampcam: " + L("note: {1}", Ln("{1} photo has a camera time without a zone: ordered and found as taken in {2}",
                                                        "{1} photos have a camera time without a zone: ordered and found as taken in {2}", assumed, assumed, zone)))
        }
        return rows.entries
    }

    /// The note when the catalog is not there yet.
    private static func noPhotosYet(_ catalogPath: String) -> String {
        L("note: {1}", L("no photos logged yet ({1} does not exist)", PathEncoding.display(catalogPath)))
    }

    // MARK: listing

    private static func list(_ options: ParsedOptions, catalogPath: String, context: Context) throws -> ExitCode {
        let console = context.console
        let rows = try entries(options, catalogPath: catalogPath, console: console)
        if options.flag(json) {
            for entry in rows { console.out(CatalogExport.jsonLine(entry)) }
        } else if console.outIsTerminal {
            for line in table(rows, width: tableWidth(context.environment), relativeTo: FileSystem.workingFolder) { console.out(line) }
            console.err("stampcam: " + Ln("{1} photo", "{1} photos", rows.count, rows.count))
        } else {
            // On a pipe: the paths, byte for byte, one a line (for xargs, tar -T …).
            for entry in rows { console.out(entry.path) }
        }
        return .success
    }

    /// The terminal's width: `COLUMNS` when set (a user's choice, or a shell's), else the terminal's own.
    static func tableWidth(_ environment: [String: String]) -> Int {
        if let given = environment["COLUMNS"].flatMap({ Int($0) }), given > 0 { return given }
        return Terminal(output: 1).size.columns
    }

    /// The table on a terminal: time, user, project, place, path (below `folder`, the working
    /// folder, relative to it); fitted to `width` columns. The time is never cut; the other columns
    /// share what is left, a narrow column keeping all it needs and the wide ones cut to the same width.
    static func table(_ rows: [CatalogEntry], width: Int, relativeTo folder: String?) -> [String] {
        let prefix = folder.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        let cells = rows.map { entry -> [String] in
            let time = entry.time.map { "\($0.dateText) \($0.timeText) \($0.offsetText)" } ?? "—"
            var path = entry.path
            if let prefix, path.hasPrefix(prefix) { path.removeFirst(prefix.count) }
            return [time, entry.user ?? "", entry.project ?? "", entry.place ?? "", path].map(PathEncoding.display)
        }
        // TRANSLATORS: the headings of the photo log's table on a terminal (English writes them in capitals).
        let header = [Lp("log column", "TIME"), Lp("log column", "USER"), Lp("log column", "PROJECT"), Lp("log column", "PLACE"), Lp("log column", "PATH")]
        let needed = header.indices.map { column in
            max(TextWidth.columns(header[column]), cells.map { TextWidth.columns($0[column]) }.max() ?? 0)
        }
        let gaps = 2 * (header.count - 1)
        let widths = [needed[0]] + shared(Array(needed.dropFirst()), room: max(0, width - needed[0] - gaps), least: 6)
        return ([header] + cells).map { row in
            row.indices.map { column in
                let cell = TextWidth.fitted(row[column], width: widths[column], keepingEnd: column == 4)
                return column == 4 ? cell : TextWidth.padded(cell, width: widths[column])
            }.joined(separator: "  ")
        }
    }

    /// Widths for columns that need `needed` in `room`: all they need when it fits, else every
    /// column gets at most one same limit (at least `least`), the largest that fits.
    static func shared(_ needed: [Int], room: Int, least: Int) -> [Int] {
        guard needed.reduce(0, +) > room else { return needed }
        var limit = least
        while needed.map({ min($0, limit + 1) }).reduce(0, +) <= room { limit += 1 }
        return needed.map { min($0, limit) }
    }

    // MARK: --check

    private static func runCheck(_ options: ParsedOptions, catalogPath: String, context: Context) throws -> ExitCode {
        let console = context.console
        let rows = try entries(options, catalogPath: catalogPath, console: console)
        let findings = CatalogCheck.check(rows, searching: options.positionals)
        var counts = (unchanged: 0, moved: 0, missing: 0, changed: 0)
        // The statuses a person reads, in one column (`--json` has their own names).
        let said = [Lp("log check", "moved"), Lp("log check", "missing"), Lp("log check", "changed")].column(least: 9)
        let words = ["moved": said[0], "missing": said[1], "changed": said[2]]
        for finding in findings {
            let line: (status: String, path: String, to: String?)
            switch finding {
            case .unchanged:
                counts.unchanged += 1
                continue
            case .moved(let from, let to):
                counts.moved += 1
                line = ("moved", from, to)
            case .missing(let path):
                counts.missing += 1
                line = ("missing", path, nil)
            case .changed(let path):
                counts.changed += 1
                line = ("changed", path, nil)
            }
            if options.flag(json) {
                let object = ["status": line.status, "path": PathEncoding.display(line.path)].merging(line.to.map { ["to": PathEncoding.display($0)] } ?? [:]) { $1 }
                console.out((try? JSONOutput.line(object)) ?? "{}")
            } else {
                let shown = PathEncoding.display(line.path) + (line.to.map { " -> " + PathEncoding.display($0) } ?? "")
                console.out(words[line.status, default: line.status] + shown)
            }
        }
        console.err("stampcam: " + Ln("{1} photo checked: {2} unchanged, {3} moved, {4} missing, {5} changed",
                                      "{1} photos checked: {2} unchanged, {3} moved, {4} missing, {5} changed",
                                      findings.count, findings.count, counts.unchanged, counts.moved, counts.missing, counts.changed))
        return counts.unchanged == findings.count ? .success : .differences
    }

    // MARK: --verify

    private static func runVerify(_ options: ParsedOptions, catalogPath: String, context: Context) throws -> ExitCode {
        var folders = options.positionals
        var given: Anchor?
        if options.flag(anchor) {
            guard let text = folders.first else { throw UsageError.missing("the anchor to check: --verify --anchor ANCHOR", command: spec.name) }
            guard let parsed = Anchor(text) else {
                throw UsageError.badValue(option: "--anchor", value: text, expected: "an anchor as 'log --anchor' prints it (1234:64 hex digits)")
            }
            given = parsed
            folders.removeFirst()
        }
        for folder in folders where FileStatus(path: FilePath(folder))?.isFolder != true {
            throw UsageError.badValue(option: "--verify", value: folder, expected: "a folder to search for photos")
        }
        if CatalogOptions.filtered(options) {
            throw UsageError.badValue(option: "--verify", value: "with a filter", expected: "given together (it walks every row)")
        }
        let console = context.console
        guard let catalog = try CatalogOptions.openForReading(catalogPath) else {
            console.err("stampcam: " + noPhotosYet(catalogPath))
            return given == nil ? .success : .differences
        }
        let report = try LogVerification.verify(catalog, searching: folders, anchor: given)
        for problem in report.problems {
            if options.flag(json) {
                let object = ["id": String(problem.id), "path": PathEncoding.display(problem.path), "problem": kindName(problem.kind),
                              "message": problem.description]
                console.out((try? JSONOutput.line(object)) ?? "{}")
            } else {
                console.out(problem.sentence)
            }
        }
        console.err("stampcam: " + summary(report))
        var holds = report.intact
        switch report.anchor {
        case .intact(let position)?:
            console.err("stampcam: " + L("the anchor is row {1} of the chain: nothing logged up to it has changed", position))
        case .broken(let position)?:
            holds = false
            console.err("stampcam: " + L("the anchor is row {1} of the chain, but rows up to it were changed, inserted or deleted since", position))
        case .missing?:
            holds = false
            console.err("stampcam: " + L("the anchor {1} is not in the log: the log was rewritten, or its rows from there on were deleted",
                                         given.map(String.init(describing:)) ?? ""))
        case nil: break
        }
        return holds ? .success : .differences
    }

    /// What `log --verify` found, in one line: rows and chains, problems, photos' heads, rows before the chain.
    private static func summary(_ report: ChainReport) -> String {
        // TRANSLATORS: {2} is "in 1 chain" or "in 3 chains" (said apart, for its plural).
        let chains = Ln("in {1} chain", "in {1} chains", report.chains, report.chains)
        var summary = report.intact
            ? Ln("{1} row {2} verified intact", "{1} rows {2} verified intact", report.chained, report.chained, chains)
            // TRANSLATORS: {3} is "1 problem" or "4 problems".
            : Ln("{1} row {2} walked: {3}", "{1} rows {2} walked: {3}", report.chained, report.chained, chains,
                 Ln("{1} problem", "{1} problems", report.problems.count, report.problems.count))
        if report.headsChecked > 0 {
            summary += "; " + Ln("{1} photo's recorded head checked", "{1} photos' recorded heads checked", report.headsChecked, report.headsChecked)
        }
        if report.unchained > 0 {
            summary += "; " + (report.unchainedRecorded
                ? Ln("{1} row is unchained (logged before the chain began, not verifiable)",
                     "{1} rows are unchained (logged before the chain began, not verifiable)", report.unchained, report.unchained)
                : Ln("{1} row is unchained (logged before the chain began, not verifiable, and not yet recorded: any stampcam that logs a photo here records them)",
                     "{1} rows are unchained (logged before the chain began, not verifiable, and not yet recorded: any stampcam that logs a photo here records them)",
                     report.unchained, report.unchained))
        }
        return summary
    }

    /// A problem's kind as `--json` names it.
    private static func kindName(_ kind: ChainProblem.Kind) -> String {
        switch kind {
        case .headNotInLog: return "headNotInLog"
        case .unlogged: return "unlogged"
        default: return "\(kind)"
        }
    }

    // MARK: --anchor

    /// The log's head, one line to keep outside the log: `log --verify --anchor` proves later that
    /// nothing logged up to it changed.
    private static func printAnchor(_ options: ParsedOptions, catalogPath: String, context: Context) throws -> ExitCode {
        if let stray = options.positionals.first {
            throw UsageError.badValue(option: "--anchor", value: stray, expected: "no argument (it prints the log's head; with --verify it checks one)")
        }
        guard let catalog = try CatalogOptions.openForReading(catalogPath), let head = try catalog.chainHead,
              let link = try catalog.links()[head] else {
            throw Failure(L("no photo is logged in a chain yet, so the log has no head to anchor"), code: .noInput)
        }
        let anchor = Anchor(position: link.position, hash: head)
        let clock = WallClock.now()
        let now = Timestamp(secondsSinceEpoch: clock.secondsSinceEpoch, utcOffsetMinutes: clock.utcOffsetMinutes)
        context.console.out("stampcam photo log anchor \(anchor) (taken \(now.iso8601), \(PathEncoding.display(catalogPath)))")
        context.console.err("stampcam: " + L("keep this line somewhere the log's keeper cannot change (an e-mail, a ticket); {1} then shows whether anything logged up to now changed",
                                             "'stampcam log --verify --anchor \(anchor)'"))
        return .success
    }

    // MARK: --rebuild

    private static func runRebuild(_ options: ParsedOptions, catalogPath: String, context: Context) throws -> ExitCode {
        guard !options.positionals.isEmpty else { throw UsageError.missing("a folder: --rebuild DIR...", command: spec.name) }
        if CatalogOptions.filtered(options) {
            throw UsageError.badValue(option: "--rebuild", value: "with a filter", expected: "given together (it adds every photo found)")
        }
        let console = context.console
        let catalog = try Catalog(path: catalogPath)
        let scan = CatalogRebuild.scan(options.positionals)
        var failures: [Failure] = []
        for (path, error) in scan.failures {
            let failure = Failure(error, path: path)
            failures.append(failure)
            console.err("stampcam: " + failure.message)
        }
        var added = 0
        var start = 0
        // A few hundred rows a transaction: another writer waits for one batch, not for the whole scan.
        while start < scan.entries.count {
            added += try catalog.add(Array(scan.entries[start..<min(scan.entries.count, start + Catalog.batchSize)]))
            start += Catalog.batchSize
        }
        let stamped = scan.entries.count
        console.err("stampcam: " + Ln("{1} JPEG read: {2} stamped by stampcam, {3} added to {4}, {5} already there; {6} without a stampcam record",
                                      "{1} JPEGs read: {2} stamped by stampcam, {3} added to {4}, {5} already there; {6} without a stampcam record",
                                      scan.files, scan.files, stamped, added, PathEncoding.display(catalogPath), stamped - added, scan.withoutRecord))
        return Failure.exitCode(for: failures)
    }

    // MARK: --merge

    private static func runMerge(_ options: ParsedOptions, catalogPath: String, context: Context) throws -> ExitCode {
        guard !options.positionals.isEmpty else { throw UsageError.missing("a catalog to merge: --merge CATALOG...", command: spec.name) }
        if CatalogOptions.filtered(options) {
            throw UsageError.badValue(option: "--merge", value: "with a filter", expected: "given together (it adds every row)")
        }
        let console = context.console
        let catalog = try Catalog(path: catalogPath)
        let target = FileIdentity(path: FilePath(catalog.path))
        var failures: [Failure] = []
        var tampered = false
        for source in options.positionals {
            do {
                if let target, FileIdentity(path: FilePath(source)) == target {
                    throw Failure(PathEncoding.display(source) + ": " + L("cannot merge a catalog into itself"), code: .usage)
                }
                let count = try catalog.merge(from: source)
                var line = "stampcam: \(PathEncoding.display(source)): " + Ln("{1} photo, {2} added", "{1} photos, {2} added", count.read, count.read, count.added)
                if count.unreadable > 0 {
                    line += "; " + Ln("{1} row could not be read and was left out", "{1} rows could not be read and were left out", count.unreadable, count.unreadable)
                }
                console.err(line)
                // Its rows are merged as they are, so the merged log's --verify names them too.
                for problem in count.chainProblems {
                    console.err("stampcam: \(PathEncoding.display(source)): " + L("its chain is broken: {1}", problem.sentence))
                }
                if !count.chainProblems.isEmpty { tampered = true }
            } catch {
                let failure = Failure(error, path: source)
                failures.append(failure)
                console.err("stampcam: " + failure.message)
            }
        }
        return failures.isEmpty && tampered ? .differences : Failure.exitCode(for: failures)
    }
}
