import Catalog
import Library
import Location
import Platform
import Provenance
import Session
import Values
import Watermark

/// `stampcam report`: a PDF photo report — a cover, an index, a location plan, the stamped photos
/// large with their fields, a page to sign — of the logged photos a filter picks, or of the photo
/// files named.
enum ReportCommand: Command {
    static let output = Option.text("output", short: "o", value: "FILE", help: marked("option", "the PDF to write (default report.pdf)"))
    static let layout = layoutOption("layout", help: marked("option", "photos on a page: 1 (as large as the page allows), 2 (default), 4 or 6 (a contact grid)"))
    static let perPage = layoutOption("per-page", help: marked("option", "the same as --layout"))
    static let title = Option.text("title", value: "TEXT", help: marked("option", "the report's title (default: Photo report, with the project)"))
    static let author = Option.text("author", value: "NAME", help: marked("option", "who wrote the report (default: the people who took the photos)"))
    static let company = Option.text("company", value: "NAME", help: marked("option", "the company's name on the cover"))
    static let logo = Option.text("logo", value: "FILE", help: marked("option", "the company's logo on the cover (PNG or JPEG)"))
    static let signOff = Option<PhotoReport.Signer>("sign-off", value: "\"NAME, ROLE\"",
                                                    help: marked("option", "a closing block with lines to sign and date (repeatable, up to 5)")) {
        text throws(UsageError) in try signer(text)
    }
    static let sites = Option.text("sites", value: "FILE", help: marked("option", "GeoJSON file of named sites: drawn on the location plan"))
    static let overwrite = Flag("overwrite", help: marked("option", "replace FILE when it exists (otherwise FILE-1 …)"))
    /// The most signers a closing page holds.
    static let maxSigners = 5

    static func layoutOption(_ long: String, help: String) -> Option<Int> {
        Option<Int>(long, value: "1|2|4|6", help: help) { text throws(UsageError) in
            guard let number = Int(text), PhotoReport.layouts.contains(number) else {
                throw .badValue(option: "--" + long, value: text, expected: "1, 2, 4 or 6")
            }
            return number
        }
    }

    /// "Wang Fang, Site manager": the name before the first comma, the role after it.
    static func signer(_ text: String) throws(UsageError) -> PhotoReport.Signer {
        let parts = text.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0]).trimmingWhitespace
        let role = parts.count > 1 ? String(parts[1]).trimmingWhitespace : ""
        guard !name.isEmpty, name.count <= 200, role.count <= 200 else {
            throw .badValue(option: "--sign-off", value: text, expected: "a name and a role: \"Wang Fang, Site manager\"")
        }
        return PhotoReport.Signer(name: name, role: role)
    }

    static let spec = CommandSpec(
        name: "report",
        usage: "report [--project P] [--user U] [--since DATE] [--until DATE] [--near LAT,LON,METRES] [--style ID] | PHOTO... "
            + "-o report.pdf [--layout 1|2|4|6] [--title T] [--company NAME] [--logo FILE] [--sign-off \"NAME, ROLE\"] [--sites FILE]",
        summary: marked("command", "Make a PDF photo report a client can sign: a cover, an index, a location plan, the stamped photos in the order taken with their time, who, where and note, and a sign-off page."),
        options: [output, layout, perPage, title, author, company, logo, signOff, sites, SigningOptions.verifyURL, overwrite, CatalogOptions.catalog]
            + CatalogOptions.filters + [CatalogOptions.tz])

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let console = context.console
        let photosPerPage = try options.value(layout) ?? options.value(perPage) ?? 2
        let given = try options.value(title)
        let target = try options.value(output) ?? "report.pdf"
        let signers = try options.values(signOff)
        guard signers.count <= maxSigners else {
            throw UsageError.badValue(option: "--sign-off", value: "\(signers.count) times", expected: "at most \(maxSigners)")
        }
        // The cover's and the plan's files are read first: a bad one stops the run before any photo is.
        let logoFile = try options.value(logo).map { path throws in try PhotoReport.Logo.read(path) }
        let siteMap = try options.value(sites).map { path throws in try SiteMap(contentsOf: path) }
        var entries: [CatalogEntry] = []
        var failures: [Failure] = []
        if options.positionals.isEmpty {
            entries = try LogCommand.entries(options, catalogPath: try CatalogOptions.path(options, context: context), console: console)
        } else {
            if CatalogOptions.filtered(options) {
                throw UsageError.badValue(option: "report", value: "PHOTO... with a filter", expected: "given together (choose one)")
            }
            for photo in options.positionals {
                do { entries.append(try PhotoEntry.described(photo)) } catch {
                    let failure = Failure(error, path: photo)
                    failures.append(failure)
                    console.err("stampcam: " + failure.message)
                }
            }
        }
        guard !entries.isEmpty else {
            if !failures.isEmpty { return Failure.exitCode(for: failures) }
            throw Failure(L("no photos to report: none is logged that matches"), code: .noInput)
        }
        let now = WallClock.now()
        var settings = ReportBuilder.Settings(title: given, perPage: photosPerPage,
                                              generated: Timestamp(secondsSinceEpoch: now.secondsSinceEpoch, utcOffsetMinutes: now.utcOffsetMinutes),
                                              version: StampCLI.version, author: try options.value(author),
                                              company: try options.value(company), logo: logoFile, signers: signers, sites: siteMap)
        settings.checking = try checking(options, context: context)
        let language = reportLanguage(options, console: console)
        let (report, leftOut) = language.speaking { ReportBuilder.build(entries, settings: settings) }
        for problem in leftOut {
            let failure = Failure(problem.error, path: problem.path)
            failures.append(failure)
            console.err("stampcam: " + L("left out of the report: {1}", failure.message))
        }
        guard !report.items.isEmpty else { return Failure.exitCode(for: failures) }
        if report.plan == nil, entries.contains(where: { $0.position != nil }) {
            console.err("stampcam: " + L("note: no location plan: the photos are more than {1} km apart", Int(ReportBuilder.planSpan / 1000)))
        }
        let pdf = try language.speaking { try Watermarker(fontConfig: context.resources.fontConfig).pdf(report) }
        // The photos (and the catalog, the logo, the sites) are this report's inputs: it is never written over one of them.
        let catalogFile = options.positionals.isEmpty ? try CatalogOptions.path(options, context: context) : nil
        let others = [catalogFile, try options.value(logo), try options.value(sites)].compactMap { $0 }
        let inputs = Set((entries.map(\.path) + others).compactMap { FileIdentity(path: FilePath($0)) })
        let written = try OutputFile.write(pdf, to: target, overwrite: options.flag(overwrite),
                                           protected: inputs)
        console.out(written)
        console.err("stampcam: \(PathEncoding.display(written)): " + Ln("{1} page", "{1} pages", report.pageCount, report.pageCount) + ", "
            + Ln("{1} photo", "{1} photos", report.items.count, report.items.count) + ", " + L("{1} MB", megabytes(pdf.count)))
        // The report's own fingerprint, for the letter or mail that sends it.
        console.err("stampcam: SHA-256 \(FileDigest.sha256(pdf))  \(PathEncoding.display(written))")
        return Failure.exitCode(for: failures)
    }

    /// The report's language: `--lang`'s (a client's: `zh` is zh_CN, as for a browser), else the run's.
    /// One without a catalogue makes an English report, and says so.
    static func reportLanguage(_ options: ParsedOptions, console: Console) -> Language {
        guard let name = try? options.value(RunLanguage.option) else { return .current }
        if let language = Translation.language(named: name) { return language }
        if Translation.languages(chosen: name, environment: [:]) != nil {
            console.err("stampcam: " + L("note: no catalogue for {1}: the report is in English", name))
        }
        return .english
    }

    private static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// The last page's facts with `verify-url`: the page, and this installation's organisation and CA
    /// (the keys are only read: a report makes none).
    static func checking(_ options: ParsedOptions, context: Context) throws -> PhotoReport.Checking? {
        guard let url = try options.value(SigningOptions.verifyURL) else { return nil }
        let keys = try? InstallationKeys.open(folder: InstallationKeys.folder(environment: context.environment))
        let organization = try options.value(company) ?? keys.flatMap { $0 }?.organization ?? InstallationKeys.defaultOrganization
        return PhotoReport.Checking(url: url, organization: organization, authorityFingerprint: keys.flatMap { $0 }?.authority.fingerprint)
    }
}
