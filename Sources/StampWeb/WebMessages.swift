import Capture
import Library
import Platform
import Session

/// Errors in the browser's words: the same facts as on the command line, with advice a person
/// can follow on the page ("tap Flash to turn it off") instead of options to pass.
public enum WebMessages {
    /// The line the page shows for `error`.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let error as CaptureError:
            return error.description + advice(error)
        case let error as WriteError:
            let saved = error.saved.isEmpty
                ? ""
                : " Saved only " + error.saved.map { PathEncoding.display(PhotoName.lastComponent($0)) }.joined(separator: ", ") + "."
            return error.cause.description + "." + saved + " The photo is kept: " + fix(error.cause) + ", then tap Use again."
        default:
            // Each layer's error (FileError, ImageError, TemplateError, WatermarkError …) says it in its description.
            return "\(error)"
        }
    }

    /// What to do about a camera problem, in terms of the page's buttons.
    static func advice(_ error: CaptureError) -> String {
        switch error {
        case .noFlash: return "; tap Flash to turn it off"
        case .flashFault: return "; let it cool down, or tap Flash to turn it off"
        case .unplugged: return "; then tap the shutter again"
        case .noSuchDevice, .busy, .permissionDenied, .notACaptureDevice, .unsupportedFormat, .unsupportedResolution:
            return "; tap Camera to go on with another one"
        default: return ""
        }
    }

    private static func fix(_ cause: WriteError.Cause) -> String {
        switch cause {
        case .file(.io): return "make room on the disk"
        case .file(.cannotCreate), .file(.wouldReplaceInput): return "make the photo folder writable"
        default: return "try another style"
        }
    }
}
