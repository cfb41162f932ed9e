import Capture
import Imaging
import Location
import Library
import Platform
import Provenance
import Session
import StampWeb
import Templates
import Watermark

/// `stampcam doctor`: one screen that checks what a setup needs — data folder, fonts for every
/// script, config file, templates, cameras and their permissions, the photo folder and its free
/// space — and says how to fix each problem.
enum DoctorCommand: Command {
    static let spec = CommandSpec(
        name: "doctor",
        usage: "doctor",
        summary: marked("command", "Check this setup — fonts and scripts, config, templates, cameras, the photo folder — and say how to fix what is wrong."),
        options: [])

    /// A line of the report.
    struct Check {
        enum Level: String { case ok = "ok     ", warning = "warning", problem = "PROBLEM" }
        var level: Level
        var topic: String
        var text: String
    }

    /// Sample text of each script a stamp is checked for, and the Debian package that covers it.
    static let scripts: [(name: String, sample: String, package: String)] = [
        ("Latin", "Łódź Ærø façade", "fonts-dejavu-core"), ("Greek", "Αθήνα", "fonts-dejavu-core"),
        ("Cyrillic", "Москва", "fonts-dejavu-core"), ("Hebrew", "ירושלים", "fonts-dejavu-core"),
        ("Arabic", "القاهرة", "fonts-dejavu-core"), ("Chinese", "北京桥梁", "fonts-noto-cjk"),
        ("Japanese", "東京タワー", "fonts-noto-cjk"), ("Korean", "서울 김민준", "fonts-noto-cjk"),
        ("Devanagari (Hindi)", "परियोजना", "fonts-noto-core"), ("Thai", "กรุงเทพ", "fonts-noto-core"),
        ("Bengali", "ঢাকা", "fonts-noto-core"), ("Tamil", "சென்னை", "fonts-noto-core"),
    ]

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let checks = checks(context)
        for check in checks { context.console.out("\(check.level.rawValue)  \(check.topic.padding(14))\(check.text)") }
        let problems = checks.filter { $0.level == .problem }.count, warnings = checks.filter { $0.level == .warning }.count
        context.console.out("\n" + (problems == 0 && warnings == 0 ? L("Everything stampcam needs is in place.")
            : Ln("{1} problem", "{1} problems", problems, problems) + ", " + Ln("{1} warning.", "{1} warnings.", warnings, warnings)))
        return problems == 0 ? .success : .unavailable
    }

    static func checks(_ context: Context) -> [Check] {
        var checks: [Check] = [Check(level: .ok, topic: "data", text: PathEncoding.display(context.resources.root) + " (fonts/, templates/)")]
        checks += features()
        if (try? GridReference.loadLibrary()) != nil { checks.append(grid()) }
        checks.append(places(context))
        checks += fonts(context)
        checks.append(language(context))
        checks.append(config(context))
        checks += templates(context)
        checks += cameras()
        checks.append(folder(context))
        checks.append(signing(context))
        return checks
    }

    /// The language of labels and messages, and whether its catalogue was found.
    static func language(_ context: Context) -> Check {
        let folder = PathEncoding.display(context.resources.catalogues(environment: context.environment))
        guard let asked = Translation.asked.first else {
            return Check(level: .ok, topic: "language", text: "English (--lang, the config's lang or LANG choose another; catalogues in \(folder))")
        }
        guard let found = Translation.catalogueLanguage else {
            return Check(level: .warning, topic: "language", text: "no catalogue for \(asked) in \(folder): labels and messages stay English "
                + "(shipped: ar, de, es, fr, he, hi, ja, pt_BR, ru, vi, zh_CN; 'make locales' compiles them in a checkout)")
        }
        return Check(level: .ok, topic: "language", text: "\(found) (\(folder))")
    }

    /// The optional features, whose libraries are opened when first used: one missing is a
    /// warning (everything else works), with the package that brings it.
    static func features() -> [Check] {
        let loads: [(topic: String, load: () throws(MissingLibrary) -> Void)] = [
            ("HEIC", HEIFSupport.load), ("serve", WebServer.loadLibraries), ("live GPS", GPSDReceiver.loadLibrary),
            ("grid", GridReference.loadLibrary),
        ]
        return loads.map { feature in
            do throws(MissingLibrary) {
                try feature.load()
                return Check(level: .ok, topic: feature.topic, text: "available")
            } catch {
                return Check(level: .warning, topic: feature.topic,
                             text: error.description + "; install it: sudo apt-get install " + error.packages.joined(separator: " "))
            }
        }
    }

    /// `{place}` needs the table of place names (`make run`, `make install` and the package bring
    /// it); without it `{place}` stays empty, everything else works.
    static func places(_ context: Context) -> Check {
        let finder = PlaceFinder.locate(environment: context.environment, dataFolder: context.resources.root)
        guard let table = finder.table else {
            return Check(level: .warning, topic: "places", text: "{place} stays empty: " + PlaceFinder.installHint)
        }
        switch finder.load() {
        case .ready(let places, _, _, _):
            return Check(level: .ok, topic: "places",
                         text: "\(places) place\(places == 1 ? "" : "s") in \(PathEncoding.display(table))")
        case .failed(let error):
            return Check(level: .warning, topic: "places", text: "{place} stays empty: \(error)")
        case .notInstalled:
            return Check(level: .warning, topic: "places", text: "{place} stays empty: " + PlaceFinder.installHint)
        }
    }

    /// `{utm}` and `{mgrs}` need PROJ's database too; without it they stay empty.
    static func grid() -> Check {
        do throws(LocationError) {
            _ = try GridReference.position(latitude: 0, longitude: 0)
            return Check(level: .ok, topic: "grid", text: "PROJ's database answers: {utm} and {mgrs} work")
        } catch {
            return Check(level: .warning, topic: "grid", text: "\(error); {utm} and {mgrs} stay empty until it is: sudo apt-get install proj-data")
        }
    }

    static func fonts(_ context: Context) -> [Check] {
        let watermarker: Watermarker
        do { watermarker = try Watermarker(fontConfig: context.resources.fontConfig) } catch {
            return [Check(level: .problem, topic: "fonts", text: "\(error); reinstall stampcam's data folder or set STAMPCAM_DATA")]
        }
        var missing: [(name: String, package: String)] = []
        for script in scripts {
            let json = #"{"version": 1, "id": "doctor", "blocks": [{"lines": ["\#(script.sample)"]}]}"#
            guard let template = try? Template(json: Array(json.utf8), file: "doctor", folder: ".") else { continue }
            // Glyphs missing are warned about on the line itself (a family no font has, on its font).
            if watermarker.validate(template).contains(where: { !$0.isError && $0.path == "blocks[0].lines[0]" }) {
                missing.append((script.name, script.package))
            }
        }
        guard !missing.isEmpty else {
            return [Check(level: .ok, topic: "fonts", text: "every script checked prints: " + scripts.map(\.name).joined(separator: ", "))]
        }
        let packages = Set(missing.map(\.package)).sorted().joined(separator: " ")
        return [Check(level: .warning, topic: "fonts", text: "no font for " + missing.map(\.name).joined(separator: ", ")
            + "; install them: sudo apt-get install \(packages) (or drop .ttf/.otf files into \(PathEncoding.display(context.resources.root))/fonts)")]
    }

    static func config(_ context: Context) -> Check {
        let file = context.configFolder + "/config.json"
        guard FileSystem.exists(FilePath(file)) else { return Check(level: .ok, topic: "config", text: "none (\(PathEncoding.display(file)) would hold your defaults)") }
        do {
            for command in StampCLI.commands { _ = try Config.arguments(for: command, file: file) }
            return Check(level: .ok, topic: "config", text: PathEncoding.display(file))
        } catch {
            return Check(level: .problem, topic: "config", text: error.description + "; fix or remove the file")
        }
    }

    static func templates(_ context: Context) -> [Check] {
        let store: TemplateStore
        do { store = try context.templates(extraFolders: []) } catch {
            return [Check(level: .problem, topic: "templates", text: error.description)]
        }
        var checks = store.problems.map { Check(level: .warning, topic: "templates", text: $0) }
        guard let watermarker = try? Watermarker(fontConfig: context.resources.fontConfig) else { return checks }
        let usable = store.usableStyles(checkingWith: watermarker, variables: [])
        for problem in usable.problems {
            checks.append(Check(level: .warning, topic: "templates", text: problem.description + " (this style is left out; 'stampcam templates check' says more)"))
        }
        checks.append(Check(level: .ok, topic: "templates", text: "\(usable.styles.count) styles: " + usable.styles.map(\.id).joined(separator: ", ")))
        return checks
    }

    static func cameras() -> [Check] {
        let (cameras, problems) = Cameras.list()
        var checks = problems.map { Check(level: .problem, topic: "camera", text: Failure(capture: $0).message) }
        if cameras.isEmpty {
            checks.append(Check(level: .warning, topic: "camera", text: "no camera found; shoot uses the built-in test pattern (plug a camera in, or check 'ls /dev/video*')"))
        }
        for camera in cameras { checks.append(Check(level: .ok, topic: "camera", text: "\(camera.path)  \(camera.card)")) }
        return checks
    }

    static func folder(_ context: Context) -> Check {
        var folder = PicturesFolder.locate(environment: context.environment)
        // Free space is asked of the nearest folder that exists (the photo folder is made when first used).
        var probe = folder
        while !FileSystem.exists(FilePath(probe)), let slash = probe.lastIndex(of: "/"), slash != probe.startIndex { probe = String(probe[..<slash]) }
        if !FileSystem.exists(FilePath(folder)) { folder += " (made when the first photo is saved)" }
        guard let free = FileSystem.freeBytes(FilePath(probe)) else {
            return Check(level: .warning, topic: "photos", text: PathEncoding.display(folder) + ": cannot tell the free space")
        }
        let megabytes = free / 1_000_000
        let text = PathEncoding.display(folder) + ": \(megabytes >= 10_000 ? "\(megabytes / 1000) GB" : "\(megabytes) MB") free"
        if (try? FileSystem.canWrite(FilePath(probe))) == nil {
            return Check(level: .problem, topic: "photos", text: text + "; this folder cannot be written to: give -o DIR or set \"output\" in the config")
        }
        return Check(level: megabytes < 200 ? .warning : .ok, topic: "photos", text: text + (megabytes < 200 ? " (less than 200 MB: about 400 photos)" : ""))
    }
}
