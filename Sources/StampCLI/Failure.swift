import Capture
import Imaging
import Library
import Templates
import Watermark

/// One line for the user and the exit code it leads to.
struct Failure: Error {
    let message: String
    let code: ExitCode

    init(_ message: String, code: ExitCode) {
        self.message = message
        self.code = code
    }

    /// Maps each layer's error to its exit code; `path` names the file when the error does not.
    init(_ error: any Error, path: String) {
        switch error {
        case let error as ImageError:
            self.init("\(path): \(error)", code: .dataError)
        case let error as FileError:
            switch error {
            case .cannotRead: self.init(error.description, code: .noInput)
            case .cannotCreate, .wouldReplaceInput: self.init(error.description, code: .cannotCreate)
            case .io: self.init(error.description, code: .ioError)
            }
        case let error as TemplateError:
            self.init(error.description, code: .dataError)
        case let error as WatermarkError:
            switch error {
            case .fontConfiguration: self.init(error.description, code: .unavailable)
            case .logo: self.init(error.description, code: .noInput)
            }
        case let error as CaptureError:
            self.init(capture: error)
        case let error as UsageError:
            self.init(error.description, code: .usage)
        case let failure as Failure:
            self = failure
        default:
            self.init("\(path): \(error)", code: .dataError)
        }
    }

    /// The exit code of a batch: the common code when all failures agree, else 65.
    static func exitCode(for failures: [Failure]) -> ExitCode {
        guard let first = failures.first else { return .success }
        return failures.allSatisfy { $0.code == first.code } ? first.code : .dataError
    }
}
