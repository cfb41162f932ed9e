import Catalog
import Library
import Platform
import Session

/// `stampcam export`: the logged photos (filtered) as CSV, GeoJSON, KML or KMZ, for a spreadsheet,
/// QGIS, geojson.io or Google Earth.
enum ExportCommand: Command {
    static let csv = Flag("csv", help: marked("option", "RFC 4180 CSV with a header line: every photo, every field"))
    static let geojson = Flag("geojson", help: marked("option", "a GeoJSON FeatureCollection of points (RFC 7946): the photos with coordinates"))
    static let kml = Flag("kml", help: marked("option", "KML placemarks for Google Earth: the photos with coordinates"))
    static let kmz = Flag("kmz", help: marked("option", "KML with a picture of each photo inside, for Google Earth: the photos with coordinates"))
    static let excel = Flag("excel", help: marked("option", "with --csv: begin with a UTF-8 byte order mark, so Excel reads Chinese, accents and dashes right"))
    static let output = Option.text("output", short: "o", value: "FILE", help: marked("option", "the file to write ('-' for standard output)"))
    static let overwrite = Flag("overwrite", help: marked("option", "replace FILE when it exists (otherwise FILE-1 …)"))

    static let spec = CommandSpec(
        name: "export",
        usage: "export --csv [--excel]|--geojson|--kml|--kmz [--project P] [--user U] [--since DATE] [--until DATE] [--near LAT,LON,METRES] [--style ID] -o FILE",
        summary: marked("command", "Write the logged photos as CSV for a spreadsheet, GeoJSON for a map, or KML or KMZ (with pictures) for Google Earth."),
        options: [csv, excel, geojson, kml, kmz, output, overwrite, CatalogOptions.catalog] + CatalogOptions.filters + [CatalogOptions.tz])

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let formats: [(Flag, CatalogExport.Format)] = [(csv, .csv), (geojson, .geojson), (kml, .kml)]
        let chosen = formats.filter { options.flag($0.0) }
        guard chosen.count + (options.flag(kmz) ? 1 : 0) == 1 else {
            throw UsageError.missing("one format: --csv, --geojson, --kml or --kmz", command: spec.name)
        }
        let format = chosen.first?.1 ?? .kml
        if options.flag(excel) && (format != .csv || options.flag(kmz)) {
            throw UsageError.badValue(option: "--excel", value: options.flag(kmz) ? "with --kmz" : "with --\(format.rawValue)",
                                      expected: "given together (it is for --csv)")
        }
        if let stray = options.positionals.first {
            throw UsageError.badValue(option: "export", value: stray, expected: "an argument it takes (the photos are chosen with filters)")
        }
        guard let target = try options.value(output), !target.isEmpty else {
            throw UsageError.missing("an output file: -o FILE (or -o - for standard output)", command: spec.name)
        }
        let console = context.console
        let path = try CatalogOptions.path(options, context: context)
        let entries = try LogCommand.entries(options, catalogPath: path, console: console)
        let protected = Set([FileIdentity(path: FilePath(path))].compactMap { $0 })
        if options.flag(kmz) {
            let temporary = context.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            return try writeKMZ(entries, to: target, temporary: temporary, overwrite: options.flag(overwrite), protected: protected,
                                console: console)
        }
        var result = try CatalogExport.export(entries, as: format)
        // Excel takes a CSV without a byte order mark for the local code page, not UTF-8.
        if options.flag(excel) { result.bytes = CatalogExport.byteOrderMark + result.bytes }
        let summary = summary(written: result.written, leftOut: result.leftOut)
        if target == "-" {
            // The line `out` ends is the output's own last one ("\r\n" in CSV: "\r" stays).
            let bytes = result.bytes.last == 0x0A ? result.bytes.dropLast() : result.bytes[...]
            console.out(String(decoding: bytes, as: UTF8.self))
            console.err("stampcam: " + summary)
            return .success
        }
        // Never over the catalog it was read from.
        let written = try OutputFile.write(result.bytes, to: target, overwrite: options.flag(overwrite), protected: protected)
        console.out(written)
        console.err("stampcam: \(PathEncoding.display(written)): " + summary)
        return .success
    }

    /// A KMZ is built in a scratch folder (its pictures, then the archive) and placed by the rules
    /// of every output; the photos missing on disk are counted, never skipped silently.
    static func writeKMZ(_ entries: [CatalogEntry], to target: String, temporary: String, overwrite: Bool,
                         protected: Set<FileIdentity>, console: Console) throws -> ExitCode {
        let (scratch, result) = try OutputFile.build(target, temporary: temporary) { scratch in try KMZExport.write(entries, in: scratch, target: target) }
        let written = try OutputFile.place(result.archive, from: scratch, to: target, overwrite: overwrite, protected: protected)
        if target != "-" { console.out(written) }
        var summary = summary(written: result.written, leftOut: result.leftOut)
        if let first = result.missing.first {
            let count = result.missing.count
            summary += "; " + Ln("{1} picture missing, placed without one (first: {2})", "{1} pictures missing, placed without one (first: {2})",
                                 count, count, first.reason)
        }
        console.err("stampcam: \(PathEncoding.display(written)): " + summary)
        return .success
    }

    /// "12 photos exported; 2 without coordinates left out (they are in --csv)", in the user's language.
    private static func summary(written: Int, leftOut: Int) -> String {
        Ln("{1} photo exported", "{1} photos exported", written, written)
            + (leftOut > 0 ? "; " + Ln("{1} without coordinates left out (they are in --csv)", "{1} without coordinates left out (they are in --csv)", leftOut, leftOut) : "")
    }
}
