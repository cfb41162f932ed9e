import Catalog
import Library
import Platform
import Session
import Values
import Watermark

/// `stampcam report`: a PDF photo report — a cover, then the stamped photos large with their
/// fields — of the logged photos a filter picks, or of the photo files named.
enum ReportCommand: Command {
    static let output = Option.text("output", short: "o", value: "FILE", help: "the PDF to write (default report.pdf)")
    static let perPage = Option<Int>("per-page", value: "2|4|6", help: "photos on a page (default 2)") { text throws(UsageError) in
        guard let number = Int(text), PhotoReport.layouts.contains(number) else {
            throw .badValue(option: "--per-page", value: text, expected: "2, 4 or 6")
        }
        return number
    }
    static let title = Option.text("title", value: "TEXT", help: "the report's title (default: Photo report, with the project)")
    static let overwrite = Flag("overwrite", help: "replace FILE when it exists (otherwise FILE-1 …)")

    static let spec = CommandSpec(
        name: "report",
        usage: "report [--project P] [--user U] [--since DATE] [--until DATE] [--near LAT,LON,METRES] [--style ID] | PHOTO... "
            + "-o report.pdf [--per-page 2|4|6] [--title T]",
        summary: "Make a PDF photo report: a cover, then the stamped photos large with their time, who, where and note.",
        options: [output, perPage, title, overwrite, CatalogOptions.catalog] + CatalogOptions.filters + [CatalogOptions.tz])

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let console = context.console
        let layout = try options.value(perPage) ?? 2
        let given = try options.value(title)
        let target = try options.value(output) ?? "report.pdf"
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
            throw Failure("no photos to report: none is logged that matches", code: .noInput)
        }
        let now = WallClock.now()
        let settings = ReportBuilder.Settings(title: given, perPage: layout,
                                              generated: Timestamp(secondsSinceEpoch: now.secondsSinceEpoch, utcOffsetMinutes: now.utcOffsetMinutes),
                                              version: StampCLI.version)
        let (report, leftOut) = ReportBuilder.build(entries, settings: settings)
        for problem in leftOut {
            let failure = Failure(problem.error, path: problem.path)
            failures.append(failure)
            console.err("stampcam: left out of the report: " + failure.message)
        }
        guard !report.items.isEmpty else { return Failure.exitCode(for: failures) }
        let pdf = try Watermarker(fontConfig: context.resources.fontConfig).pdf(report)
        // The photos (and the catalog) are this report's inputs: it is never written over one of them.
        let catalogFile = options.positionals.isEmpty ? FileIdentity(path: FilePath(try CatalogOptions.path(options, context: context))) : nil
        let inputs = Set(entries.compactMap { FileIdentity(path: FilePath($0.path)) } + [catalogFile].compactMap { $0 })
        let written = try OutputFile.write(pdf, to: target, overwrite: options.flag(overwrite),
                                           protected: inputs)
        console.out(written)
        console.err("stampcam: \(PathEncoding.display(written)): \(report.pageCount) pages, \(report.items.count) photo"
            + "\(report.items.count == 1 ? "" : "s"), \(megabytes(pdf.count)) MB")
        return Failure.exitCode(for: failures)
    }

    private static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return "\(tenths / 10).\(tenths % 10)"
    }
}
