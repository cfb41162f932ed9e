import Capture
import Imaging
import Library
import Platform
import Session
import Templates
import Watermark

/// Errors in the browser's words: the same facts as on the command line, with advice a person
/// can follow on the page ("tap Flash to turn it off") instead of options to pass.
public enum WebMessages {
    /// The line the page shows for `error`.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let error as CaptureError:
            return error.description + advice(error)
        case let error as WriteError:
            let reason: String
            switch error.cause {
            case .file(let file): reason = file.description
            case .image(let image): reason = image.description
            case .template(let template): reason = template.description
            case .watermark(let watermark): reason = watermark.description
            }
            let saved = error.saved.isEmpty
                ? ""
                : " Saved only " + error.saved.map { PathEncoding.display(PhotoName.lastComponent($0)) }.joined(separator: ", ") + "."
            return reason + "." + saved + " The photo is kept: " + fix(error.cause) + ", then tap Use again."
        case let error as FileError:
            return error.description
        case let error as ImageError:
            return error.description
        case let error as TemplateError:
            return error.description
        case let error as WatermarkError:
            return error.description
        default:
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
