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

    /// A line of the report: its level, topic and text in the user's language.
    struct Check {
        enum Level {
            case ok, warning, problem

            var word: String {
                switch self {
                // TRANSLATORS: the first column of 'stampcam doctor': a check that passed, a warning, a problem (English writes it in capitals).
                case .ok: return Lp("doctor", "ok")
                case .warning: return Lp("doctor", "warning")
                case .problem: return Lp("doctor", "PROBLEM")
                }
            }
        }
        var level: Level
        var topic: String
        var text: String
    }

    /// Sample text of each script a stamp is checked for, and the Debian package that covers it.
    static let scripts: [(name: String, sample: String, package: String)] = [
        (marked("script", "Latin"), "Łódź Ærø façade", "fonts-dejavu-core"), (marked("script", "Greek"), "Αθήνα", "fonts-dejavu-core"),
        (marked("script", "Cyrillic"), "Москва", "fonts-dejavu-core"), (marked("script", "Hebrew"), "ירושלים", "fonts-dejavu-core"),
        (marked("script", "Arabic"), "القاهرة", "fonts-dejavu-core"), (marked("script", "Chinese"), "北京桥梁", "fonts-noto-cjk"),
        (marked("script", "Japanese"), "東京タワー", "fonts-noto-cjk"), (marked("script", "Korean"), "서울 김민준", "fonts-noto-cjk"),
        (marked("script", "Devanagari (Hindi)"), "परियोजना", "fonts-noto-core"), (marked("script", "Thai"), "กรุงเทพ", "fonts-noto-core"),
        (marked("script", "Bengali"), "ঢাকা", "fonts-noto-core"), (marked("script", "Tamil"), "சென்னை", "fonts-noto-core"),
    ]

    /// A script's name marked for translation; `Lp("script", name)` says it.
    private static func marked(_ context: String, _ word: String) -> String { word }

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let checks = checks(context)
        // Every level's word sets the first column's width, whichever levels this run shows.
        let levelWidth = [Check.Level.ok, .warning, .problem].map { TextWidth.columns($0.word) }.max() ?? 0
        let topics = checks.map(\.topic).column(least: 14)
        for (check, topic) in zip(checks, topics) { context.console.out(TextWidth.padded(check.level.word, width: levelWidth) + "  " + topic + check.text) }
        let problems = checks.filter { $0.level == .problem }.count, warnings = checks.filter { $0.level == .warning }.count
        context.console.out("\n" + (problems == 0 && warnings == 0 ? L("Everything stampcam needs is in place.")
            : Ln("{1} problem", "{1} problems", problems, problems) + ", " + Ln("{1} warning.", "{1} warnings.", warnings, warnings)))
        return problems == 0 ? .success : .unavailable
    }

    static func checks(_ context: Context) -> [Check] {
        var checks: [Check] = [Check(level: .ok, topic: Lp("doctor", "data"), text: PathEncoding.display(context.resources.root) + " (fonts/, templates/)")]
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
            return Check(level: .ok, topic: Lp("doctor", "language"), text: L("English (--lang, the config's lang or LANG choose another; catalogues in {1})", folder))
        }
        guard let found = Translation.catalogueLanguage else {
            return Check(level: .warning, topic: Lp("doctor", "language"),
                         text: L("no catalogue for {1} in {2}: labels and messages stay English (shipped: {3}; 'make locales' compiles them in a checkout)",
                                 asked, folder, "ar, de, es, fr, he, hi, ja, pt_BR, ru, vi, zh_CN"))
        }
        return Check(level: .ok, topic: Lp("doctor", "language"), text: "\(found) (\(folder))")
    }

    /// The optional features, whose libraries are opened when first used: one missing is a
    /// warning (everything else works), with the package that brings it.
    static func features() -> [Check] {
        let loads: [(topic: String, load: () throws(MissingLibrary) -> Void)] = [
            ("HEIC", HEIFSupport.load), ("serve", WebServer.loadLibraries), (Lp("doctor", "live GPS"), GPSDReceiver.loadLibrary),
            (Lp("doctor", "grid"), GridReference.loadLibrary),
        ]
        return loads.map { feature in
            do throws(MissingLibrary) {
                try feature.load()
                return Check(level: .ok, topic: feature.topic, text: L("available"))
            } catch {
                return Check(level: .warning, topic: feature.topic,
                             text: error.description + "; " + L("install it: {1}", "sudo apt-get install " + error.packages.joined(separator: " ")))
            }
        }
    }

    /// `{place}` needs the table of place names (`make run`, `make install` and the package bring
    /// it); without it `{place}` stays empty, everything else works.
    static func places(_ context: Context) -> Check {
        let finder = PlaceFinder.locate(environment: context.environment, dataFolder: context.resources.root)
        guard let table = finder.table else {
            return Check(level: .warning, topic: Lp("doctor", "places"), text: placeStaysEmpty(PlaceFinder.installHint))
        }
        switch finder.load() {
        case .ready(let places, _, _, _):
            return Check(level: .ok, topic: Lp("doctor", "places"), text: Ln("{1} place in {2}", "{1} places in {2}", places, places, PathEncoding.display(table)))
        case .failed(let error):
            return Check(level: .warning, topic: Lp("doctor", "places"), text: placeStaysEmpty("\(error)"))
        case .notInstalled:
            return Check(level: .warning, topic: Lp("doctor", "places"), text: placeStaysEmpty(PlaceFinder.installHint))
        }
    }

    private static func placeStaysEmpty(_ why: String) -> String {
        // TRANSLATORS: {place} is a template variable, kept as it is; {1} says why.
        L("{place} stays empty: {1}", why)
    }

    /// `{utm}` and `{mgrs}` need PROJ's database too; without it they stay empty.
    static func grid() -> Check {
        do throws(LocationError) {
            _ = try GridReference.position(latitude: 0, longitude: 0)
            return Check(level: .ok, topic: Lp("doctor", "grid"), text: L("PROJ's database answers: {utm} and {mgrs} work"))
        } catch {
            return Check(level: .warning, topic: Lp("doctor", "grid"),
                         text: "\(error); " + L("{utm} and {mgrs} stay empty until it is: {1}", "sudo apt-get install proj-data"))
        }
    }

    static func fonts(_ context: Context) -> [Check] {
        let watermarker: Watermarker
        do { watermarker = try Watermarker(fontConfig: context.resources.fontConfig) } catch {
            return [Check(level: .problem, topic: Lp("doctor", "fonts"), text: "\(error); " + L("reinstall stampcam's data folder or set STAMPCAM_DATA"))]
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
            return [Check(level: .ok, topic: Lp("doctor", "fonts"), text: L("every script checked prints: {1}", scripts.map { Lp("script", $0.name) }.joined(separator: ", ")))]
        }
        let packages = Set(missing.map(\.package)).sorted().joined(separator: " ")
        return [Check(level: .warning, topic: Lp("doctor", "fonts"),
                      text: L("no font for {1}; install them: {2} (or drop .ttf/.otf files into {3})", missing.map { Lp("script", $0.name) }.joined(separator: ", "),
                              "sudo apt-get install \(packages)", PathEncoding.display(context.resources.root) + "/fonts"))]
    }

    static func config(_ context: Context) -> Check {
        let file = context.configFolder + "/config.json"
        let topic = Lp("doctor", "config")
        guard FileSystem.exists(FilePath(file)) else { return Check(level: .ok, topic: topic, text: L("none ({1} would hold your defaults)", PathEncoding.display(file))) }
        do {
            for command in StampCLI.commands { _ = try Config.arguments(for: command, file: file) }
            return Check(level: .ok, topic: topic, text: PathEncoding.display(file))
        } catch {
            return Check(level: .problem, topic: topic, text: error.description + "; " + L("fix or remove the file"))
        }
    }

    static func templates(_ context: Context) -> [Check] {
        let store: TemplateStore
        do { store = try context.templates(extraFolders: []) } catch {
            return [Check(level: .problem, topic: Lp("doctor", "templates"), text: error.description)]
        }
        let topic = Lp("doctor", "templates")
        var checks = store.problems.map { Check(level: .warning, topic: topic, text: $0) }
        guard let watermarker = try? Watermarker(fontConfig: context.resources.fontConfig) else { return checks }
        let usable = store.usableStyles(checkingWith: watermarker, variables: [])
        for problem in usable.problems {
            checks.append(Check(level: .warning, topic: topic, text: problem.description + " " + L("(this style is left out; 'stampcam templates check' says more)")))
        }
        checks.append(Check(level: .ok, topic: topic, text: Ln("{1} style: {2}", "{1} styles: {2}", usable.styles.count, usable.styles.count,
                                                                 usable.styles.map(\.id).joined(separator: ", "))))
        return checks
    }

    static func cameras() -> [Check] {
        let (cameras, problems) = Cameras.list()
        let topic = Lp("doctor", "camera")
        var checks = problems.map { Check(level: .problem, topic: topic, text: Failure(capture: $0).message) }
        if cameras.isEmpty {
            checks.append(Check(level: .warning, topic: topic, text: L("no camera found; shoot uses the built-in test pattern (plug a camera in, or check 'ls /dev/video*')")))
        }
        for camera in cameras { checks.append(Check(level: .ok, topic: topic, text: "\(camera.path)  \(camera.card)")) }
        return checks
    }

    static func folder(_ context: Context) -> Check {
        let folder = PicturesFolder.locate(environment: context.environment)
        // Free space is asked of the nearest folder that exists (the photo folder is made when first used).
        var probe = folder
        while !FileSystem.exists(FilePath(probe)), let slash = probe.lastIndex(of: "/"), slash != probe.startIndex { probe = String(probe[..<slash]) }
        let shown = FileSystem.exists(FilePath(folder)) ? PathEncoding.display(folder)
            : L("{1} (made when the first photo is saved)", PathEncoding.display(folder))
        let topic = Lp("doctor", "photos")
        guard let free = FileSystem.freeBytes(FilePath(probe)) else {
            return Check(level: .warning, topic: topic, text: shown + ": " + L("cannot tell the free space"))
        }
        let megabytes = free / 1_000_000
        let text = shown + ": " + L("{1} free", megabytes >= 10_000 ? "\(megabytes / 1000) GB" : "\(megabytes) MB")
        if (try? FileSystem.canWrite(FilePath(probe))) == nil {
            return Check(level: .problem, topic: topic, text: text + "; " + L("this folder cannot be written to: give -o DIR or set \"output\" in the config"))
        }
        return Check(level: megabytes < 200 ? .warning : .ok, topic: topic, text: text + (megabytes < 200 ? " " + L("(less than 200 MB: about 400 photos)") : ""))
    }
}
