import Platform
import Session
import Templates

/// `serve` from its start to its stop, in one owner, so every front end starts and stops it in the
/// same order: the web server's library and the page's words first, then the session's set-up (styles, folder, catalog, GPS, fonts), the camera's controller,
/// the phones' uploads (their shot numbers shared with the camera's), and the server. `stop`
/// undoes it the other way round.
///
/// ```swift
/// let session = try ServeSession(choices)   // listening once this returns
/// …                                          // until Ctrl-C
/// let summary = session.stop()               // server, uploads, camera: in that order
/// session.setup.finish()                     // once the front end has said what it will
/// ```
public final class ServeSession: Sendable {
    public struct Choices: Sendable {
        /// The camera's session: styles, folder, fields, camera, writer, catalog.
        public var shoot: ShootSetup.Choices
        /// Where and how the server listens; its `uploads` and `words` are the session's to make.
        public var server: WebServer.Settings
        /// Hears what the server's operator should know while it runs (a share command that failed,
        /// a phone's photo that could not be saved).
        public var tell: @Sendable (String) -> Void
        /// Hears of each phone's photo saved.
        public var announce: @Sendable (PhotoUploads.SavedUpload) -> Void = { _ in }
        /// The longest side of a phone's photo; 0 (the default) keeps its own size.
        public var uploadMaxSize = 0
        /// Makes the team's day for the lead's page (`/team`) from the set-up; nil serves none.
        public var lead: (@Sendable (ShootSetup) -> LeadDesk?)?

        public init(shoot: ShootSetup.Choices, server: WebServer.Settings, tell: @escaping @Sendable (String) -> Void = { _ in }) {
            self.shoot = shoot
            self.server = server
            self.tell = tell
        }
    }

    /// What the session did, for the front end to say when it stops.
    public struct Summary: Sendable {
        /// The photos saved: the camera's and the phones'.
        public var saved: Int
        /// Of them, the phones'.
        public var fromPhones: Int
        /// The phones' photos still under review, not saved.
        public var droppedUploads: Int
        /// The camera's photo under review was not saved.
        public var unsavedShot: Bool
    }

    public let setup: ShootSetup
    /// The styles as checked with the fonts (what the page cycles through).
    public let styles: ShootSetup.StyleCheck
    /// The server's camera; nil without one (`shoot.usesCamera` false: the phones bring their own).
    public let controller: ShootController?
    public let uploads: PhotoUploads
    public let server: WebServer

    /// Starts everything; on a failure, what was started is stopped again (the folder the set-up
    /// made is removed) and the error thrown: `MissingLibrary`, the set-up's errors, `WebError`.
    public init(_ choices: Choices) throws {
        try WebServer.loadLibraries()  // said before a camera is opened
        var settings = choices.server
        settings.words = PageWords.everyLanguage()
        let setup = try ShootSetup(choices.shoot)
        do {
            let styles = try setup.checkStyles()
            let counter = ShotCounter(folder: setup.folder)
            let controller = choices.shoot.usesCamera ? try setup.makeController(counter: counter) : nil
            do {
                var upload = try setup.uploadSettings(style: styles.styles[styles.style], counter: counter, maxSize: choices.uploadMaxSize)
                upload.tell = choices.tell
                upload.announce = choices.announce
                let uploads = PhotoUploads(settings: upload)
                settings.uploads = uploads
                settings.lead = choices.lead?(setup)
                server = try WebServer(controller: controller, styles: styles.styles, settings: settings)
                self.uploads = uploads
            } catch {
                controller?.close()
                throw error
            }
            self.controller = controller
            self.styles = styles
        } catch {
            setup.finish()
            throw error
        }
        self.setup = setup
    }

    /// Stops the server (every connection ends, the uploads being stamped first), drops the phones'
    /// photos still under review, and closes the camera (a save in flight is finished).
    public func stop() -> Summary {
        server.stop()
        let dropped = uploads.close()
        let unsaved = controller?.snapshot().state.hasUnsavedShot ?? false
        controller?.close()
        return Summary(saved: (controller?.saved.count ?? 0) + uploads.saved, fromPhones: uploads.saved, droppedUploads: dropped,
                       unsavedShot: unsaved)
    }
}
