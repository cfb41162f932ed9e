import Capture
import Catalog
import Imaging
import Library
import Location
import Platform
import Provenance
import Session
import StampWeb
import Templates
import Watermark

/// One line for the user and the exit code it leads to. The layers below say what happened; this
/// is where a line gets the advice that names a command-line option.
struct Failure: Error {
    let message: String
    let code: ExitCode

    init(_ message: String, code: ExitCode) {
        self.message = message
        self.code = code
    }

    /// Maps each layer's error to its line and exit code; `path` names the file when the error does not.
    /// `salvageHelps`: the command has --salvage and it was not given, so it may be advised (not
    /// again in a run that salvaged, nor where the command has no such option).
    init(_ error: any Error, path: String, salvageHelps: Bool = false) {
        let place = PathEncoding.display(path)
        switch error {
        case let error as ImageError:
            if case .libraryMissing(let missing) = error {
                self.init(missing: missing, place: place)
            } else {
                self.init("\(place): \(error)\(Self.advice(error, salvageHelps: salvageHelps))", code: .dataError)
            }
        case let error as FileError:
            self.init(file: error)
        case let error as WriteError:
            let inner = Failure(error.cause.underlying, path: path, salvageHelps: salvageHelps)
            let saved = error.saved.isEmpty ? "" : "; saved: " + error.saved.map(PathEncoding.display).joined(separator: ", ")
            self.init(inner.message + saved, code: inner.code)
        case let error as TemplateError:
            self.init(error.description + StampOptions.advice(missingValue: error.missingValue), code: .dataError)
        case let error as TemplateStore.UnknownStyle:
            // `site_report`, `Classic`: the id meant, when one is close.
            let folded = error.choice.lowercased().map { $0 == "_" || $0 == " " ? "-" : $0 }
            let near = Variables.suggestion(for: String(folded), among: error.known).map { " (did you mean '\($0)'?)" } ?? ""
            self.init(UsageError.badValue(option: "--template", value: error.choice,
                                          expected: "a known style (\(error.known.joined(separator: ", "))) or a .json file").description + near,
                      code: .usage)
        case let error as WatermarkError:
            switch error {
            case .fontConfiguration: self.init(error.description, code: .unavailable)
            case .logo: self.init(error.description, code: .noInput)
            }
        case let error as CaptureError:
            self.init(capture: error)
        case let error as AlreadyStamped:
            // restamp needs the unstamped original: advised only when it is there.
            let advice = error.originalKept
                ? L("use restamp, or --stamp-again to draw over it")
                : L("its original was not kept, so restamp cannot make it again; --stamp-again draws over the stamp")
            self.init("\(place): \(error); \(advice)", code: .dataError)
        case let error as Restamp.Problem:
            self.init(restamp: error, place: place)
        case let error as WebError:
            if case .libraryMissing(let missing) = error {
                self.init(missing: missing)
            } else {
                self.init(error.description + "; choose another address or port with --listen", code: .unavailable)
            }
        case let error as MissingLibrary:
            self.init(missing: error)
        case let error as TeamRoster.Problem:
            switch error {
            case .unreadable: self.init(error.description + "; fix or remove the file, then add the people again", code: .ioError)
            case .exists: self.init(error.description + "; remove them first to give them a new link", code: .usage)
            case .unknown: self.init(error.description + " (see: stampcam team list)", code: .usage)
            case .badName: self.init(error.description, code: .usage)
            }
        case let error as UsageError:
            self.init(error.description, code: .usage)
        case let error as SiteError:
            if case .cannotRead = error { self.init(error.description, code: .noInput) } else { self.init(error.description, code: .dataError) }
        case let error as LocationError:
            if case .libraryMissing(let missing) = error {
                self.init(missing: missing)
                return
            }
            self.init("--gps require: \(error); start gpsd (sudo systemctl start gpsd), point --gpsd at it, or use --gps auto",
                      code: .unavailable)
        case let error as CatalogError:
            self.init(catalog: error)
        case let error as ProvenanceError:
            self.init(provenance: error)
        case let error as CatalogExportError:
            self.init(error.description, code: .ioError)
        case let error as ReportError:
            self.init(error.description, code: .unavailable)
        case let error as ShootSetup.Problem:
            switch error {
            case .oneFileForSeveralPhotos(let target):
                self.init(UsageError.badValue(option: "--output", value: PathEncoding.display(target.path),
                                              expected: "usable without --yes or with --count above 1: it names one file; give a folder (-o DIR)").description,
                          code: .usage)
            }
        case let error as ShootSeries.Failure:
            switch error {
            case .noPhoto: self.init("the camera gave no photo", code: .unavailable)
            case .notSaved: self.init("the photo could not be saved", code: .ioError)
            }
        case let failure as Failure:
            self = failure
        case let error as Threads.StartError:
            let advice = error.errno == .wouldBlock
                ? "; a limit on threads (ulimit -u, a container's pids limit) or on memory for their stacks (ulimit -v) is reached"
                : ""
            self.init(error.description + advice, code: .unavailable)
        default:
            self.init("\(place): \(error)", code: .dataError)
        }
    }

    init(file error: FileError) {
        switch error {
        case .cannotRead, .noPhotos: self.init(error.description, code: .noInput)
        case .cannotCreate, .wouldReplaceInput: self.init(error.description, code: .cannotCreate)
        case .io: self.init(error.description, code: .ioError)
        }
    }

    /// An optional feature's library that is not installed: what needs it, and how to install it.
    init(missing: MissingLibrary, place: String? = nil) {
        let line = missing.description + "; install it: sudo apt-get install " + missing.packages.joined(separator: " ")
        self.init(place.map { "\($0): " + line } ?? line, code: .unavailable)
    }

    init(catalog error: CatalogError) {
        switch error {
        case .cannotOpen: self.init(error.description, code: .cannotCreate)
        case .notACatalog, .newerVersion, .damaged: self.init(error.description, code: .dataError)
        case .busy: self.init(error.description + "; try again when the other stampcam is done", code: .unavailable)
        case .failed: self.init(error.description, code: .ioError)
        }
    }

    /// Files that cannot be read are 66; keys and certificates that are wrong are 65.
    init(provenance error: ProvenanceError) {
        switch error {
        case .cannotRead: self.init(error.description, code: .noInput)
        case .unsafeFolder, .cannotCreate: self.init(error.description, code: .cannotCreate)
        case .crypto: self.init(error.description, code: .unavailable)
        case .cannotEmbed: self.init(error.description, code: .dataError)
        case .badPEM, .unsupportedKey, .keyMismatch, .wrongOrder, .expired, .notYetValid, .unsafeKey: self.init(error.description, code: .dataError)
        case .authorityKeyMissing: self.init(error.description, code: .unavailable)
        case .identityExists: self.init(error.description, code: .cannotCreate)
        }
    }

    init(restamp error: Restamp.Problem, place: String) {
        switch error {
        case .noRecord, .noKeptOriginal:
            self.init("\(place): cannot restamp: \(error); stamp its source again with apply -t STYLE", code: .dataError)
        case .badOriginalName:
            self.init("\(place): cannot restamp: \(error)", code: .dataError)
        case .originalChanged:
            self.init("\(place): cannot restamp: \(error)", code: .dataError)
        }
    }

    private static func advice(_ error: ImageError, salvageHelps: Bool) -> String {
        switch error {
        case .tooManyPixels: return "; raise the limit with --max-pixels"
        case .tooMuchMemory: return "; raise the limit with --max-memory"
        case .corruptData, .truncated: return salvageHelps ? "; --salvage stamps what decodes" : ""
        case .truncatedFile(_, _, pixelsComplete: true): return salvageHelps ? "; --salvage stamps it" : ""
        default: return ""
        }
    }

    /// The exit code of a batch: the common code when all failures agree, else 65.
    static func exitCode(for failures: [Failure]) -> ExitCode {
        guard let first = failures.first else { return .success }
        return failures.allSatisfy { $0.code == first.code } ? first.code : .dataError
    }
}
