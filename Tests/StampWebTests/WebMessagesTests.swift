import Imaging
import Library
import Templates
import Testing
import Watermark
@testable import Session
@testable import StampWeb

/// A failed save reads the same on the page as on the command line: the reason in its layer's words
/// (`WriteError.Cause.description`), then what the page's buttons can do about it.
@Suite struct WebMessagesTests {
    static let causes: [WriteError.Cause] = [
        .file(.io(path: "/photos/a.jpg", reason: "No space left on device")),
        .file(.cannotCreate(path: "/photos", reason: "Permission denied")),
        .image(.encodeFailed("libjpeg ran out of memory")),
        .template(TemplateError(file: "site.json", path: "blocks[0]", problem: "expected an object")),
        .watermark(.logo(path: "/logo.png", reason: "not a PNG file")),
    ]

    @Test("every cause is phrased once: the page, the error's own description and the underlying error agree")
    func phrasedOnce() {
        for cause in Self.causes {
            let reason = "\(cause.underlying)"
            #expect(cause.description == reason)
            #expect(WriteError(cause: cause, saved: []).description == reason + " (nothing was saved)")
            let page = WebMessages.describe(WriteError(cause: cause, saved: ["/photos/a.jpg"]))
            #expect(page.hasPrefix(reason + ". Saved only a.jpg. The photo is kept: "), "\(page)")
        }
        #expect(WebMessages.describe(WriteError(cause: Self.causes[0], saved: []))
            == "/photos/a.jpg: No space left on device. The photo is kept: make room on the disk, then tap Use again.")
        #expect(WebMessages.describe(WriteError(cause: Self.causes[1], saved: []))
            == "/photos: cannot create: Permission denied. The photo is kept: make the photo folder writable, then tap Use again.")
        #expect(WebMessages.describe(WriteError(cause: Self.causes[4], saved: []))
            == "/logo.png: cannot use this logo: not a PNG file. The photo is kept: try another style, then tap Use again.")
    }

    @Test("other errors are shown in their own words")
    func plainErrors() {
        #expect(WebMessages.describe(FileError.io(path: "/p/x.jpg", reason: "I/O error")) == "/p/x.jpg: I/O error")
        #expect(WebMessages.describe(ImageError.empty) == "empty file (0 bytes)")
        #expect(WebMessages.describe(WatermarkError.logo(path: "/l.png", reason: "file not found")) == "/l.png: cannot use this logo: file not found")
    }
}
