import Capture
import Foundation
import Imaging
import Session
import Templates

/// The watermark camera on a terminal: the live picture with the current style's stamp drawn in
/// truecolor half blocks, keys that drive the shoot session (take, restyle, retake, use), the photo
/// under review, and where it went. Works locally, over SSH and inside tmux.
final class ShootScreen {
    private let terminal = Terminal()
    private let devices: [String]
    private let settings: CaptureSettings
    private let writer: ShotWriter
    private let styles: [Template]
    private var camera: Camera
    private var session: ShootSession
    private var stills: [ShotID: CapturedStill] = [:]
    /// The shot under review, stamped in the current style, at screen size.
    private var reviewed: Bitmap?
    /// The last picture drawn, kept on screen while capturing.
    private var lastPicture: Bitmap?
    /// Camera notes and errors, shown until the next key.
    private var notice: String?
    private var lastSize = (columns: 0, rows: 0)

    init(devices: [String], settings: CaptureSettings, writer: ShotWriter) throws {
        self.devices = devices
        self.settings = settings
        self.writer = writer
        styles = writer.stamper.catalog.entries.map(\.template)
        camera = try Camera.open(devices[0], settings: settings)
        let chosen = styles.firstIndex { $0.id == writer.stamper.template.id } ?? 0
        session = ShootSession(ShootState(styleCount: styles.count, style: chosen,
                                          flashModes: camera.flashModes.compactMap { Session.FlashMode(rawValue: $0.rawValue) },
                                          maxZoom: camera.zoomRange.upperBound, cameraCount: devices.count))
        notice = camera.takeNotes().first
    }

    /// Runs until the user quits; the terminal is restored on every way out.
    func run() -> ExitCode {
        guard terminal.enterRawMode() else { return .unavailable }
        defer {
            terminal.restore()
            camera.close()
        }
        while session.state.phase != .finished {
            for key in terminal.readKeys() {
                if key == .interrupt { return .interrupted }
                notice = nil
                if let event = Self.event(for: key, in: session.state.phase) { perform(session.handle(event)) }
            }
            draw()
        }
        return .success
    }

    /// The keys: Space/Enter shoot, ←/→ style, f flash, c camera, +/- zoom, a focus, r retake,
    /// u/Enter use, q/Esc quit, y/n to confirm.
    static func event(for key: Key, in phase: ShootState.Phase) -> ShootEvent? {
        switch (phase, key) {
        case (.confirmingQuit, .character("y")), (.confirmingQuit, .character("q")): return .confirm(true)
        case (.confirmingQuit, .character("n")), (.confirmingQuit, .escape): return .confirm(false)
        case (.confirmingQuit, _): return nil
        case (_, .character("q")), (_, .escape): return .quit
        case (_, .left): return .previousStyle
        case (_, .right): return .nextStyle
        case (.reviewing, .enter), (_, .character("u")): return .use
        case (_, .character("r")): return .retake
        case (_, .space), (_, .enter): return .shutter
        case (_, .character("f")): return .cycleFlash
        case (_, .character("c")): return .switchCamera
        case (_, .character("+")), (_, .character("=")), (_, .up): return .zoomIn
        case (_, .character("-")), (_, .down): return .zoomOut
        case (_, .character("a")): return .focus
        default: return nil
        }
    }

    /// Does what the session asks, feeding results back as events.
    private func perform(_ effects: [ShootEffect]) {
        for effect in effects {
            switch effect {
            case .capture(let id):
                draw(busy: "Taking the photo…")
                do {
                    stills[id] = try camera.captureStill()
                    perform(session.handle(.captured(id)))
                } catch {
                    perform(session.handle(.captureFailed(Failure(error, path: devices[session.state.camera]).message)))
                }
            case .renderShot(let id, let style):
                reviewed = stills[id].flatMap { try? render($0.photo, style: style, fields: writer.fields(for: $0)) }
            case .save(let id, let style):
                draw(busy: "Saving…")
                guard let still = stills[id] else { break }
                do {
                    let path = try writer.save(still, style: styles[style]) { notice = $0 }
                    perform(session.handle(.saved(id, path: path)))
                } catch {
                    perform(session.handle(.saveFailed(id, Failure(error, path: writer.folder).message)))
                }
            case .discard(let id):
                stills[id] = nil
                reviewed = nil
            case .setFlash(let mode):
                do { try camera.setFlash(Capture.FlashMode(rawValue: mode.rawValue) ?? .off) } catch { notice = "\(error)" }
            case .setZoom(let factor):
                camera.setZoom(factor)
            case .triggerFocus:
                camera.setFocus(.auto)
            case .switchCamera(let index):
                camera.close()
                do { camera = try Camera.open(devices[index], settings: settings) } catch { notice = "\(error)" }
            case .exit:
                break
            }
            if let note = camera.takeNotes().first { notice = note }
        }
    }

    /// A copy of `photo` fitted to the screen and stamped in `style`.
    private func render(_ photo: Photo, style: Int, fields: Fields) throws -> Bitmap {
        let size = terminal.size
        let fit = HalfBlocks.fit(width: photo.width, height: photo.height, columns: size.columns, rows: max(1, size.rows - 2))
        var small = Photo(bitmap: try photo.bitmap.scaled(width: max(1, fit.columns * 2), height: max(1, fit.pixelRows * 2)))
        try writer.stamper.watermarker.stamp(&small, template: styles[style], fields: fields)
        return small.bitmap
    }

    /// The live picture with the current style's stamp, as the photo would get it now.
    private func livePicture() -> Bitmap? {
        let size = terminal.size
        do {
            let frame = try camera.previewFrame(maxSize: max(size.columns, size.rows * 2) * 2)
            var fields = writer.stamper.fieldOptions.fieldsNow()
            if fields.camera == nil { fields.camera = camera.info.card }
            var photo = Photo(bitmap: frame)
            try writer.stamper.watermarker.stamp(&photo, template: styles[session.state.style], fields: fields)
            return photo.bitmap
        } catch {
            notice = Failure(error, path: camera.info.path).message
            return nil
        }
    }

    private func draw(busy: String? = nil) {
        let size = terminal.size
        if size != lastSize {
            terminal.write("\u{1B}[2J")  // resized: clear what the old layout left
            lastSize = size
        }
        let state = session.state
        var picture: Bitmap?
        switch state.phase {
        case .viewfinder, .saved, .failed: picture = busy == nil ? livePicture() : lastPicture
        case .capturing: picture = lastPicture
        default: picture = reviewed ?? lastPicture
        }
        if let picture { lastPicture = picture }
        let rows = max(1, size.rows - 2)
        let lines = picture.map { HalfBlocks.render($0, columns: size.columns, rows: rows) }
            ?? HalfBlocks.blank(columns: size.columns, rows: rows)
        var screen = "\u{1B}[H" + lines.joined(separator: "\n")
        screen += "\n" + Self.bar(statusText(busy: busy), width: size.columns, reverse: true)
        screen += "\n" + Self.bar(Self.help(for: state.phase), width: size.columns, reverse: false)
        terminal.write(screen)
    }

    private func statusText(busy: String?) -> String {
        let state = session.state
        if let busy { return busy }
        if let message = state.message ?? notice { return message }
        let style = styles[state.style]
        let zoom = String(format: "%.1f×", state.zoom)
        return "\(camera.info.card) \(camera.frameSize)  flash \(state.flash.rawValue)  style \(style.name) "
            + "(\(state.style + 1)/\(styles.count))  zoom \(zoom)  → \(writer.folder)"
    }

    static func help(for phase: ShootState.Phase) -> String {
        switch phase {
        case .reviewing: return "u/Enter use   r retake   ←/→ style   q quit"
        case .confirmingQuit: return "y quit without saving   n go back"
        case .capturing, .saving: return "…"
        default: return "Space shoot   ←/→ style   f flash   c camera   +/- zoom   a focus   q quit"
        }
    }

    /// One screen line of exactly `width` cells.
    static func bar(_ text: String, width: Int, reverse: Bool) -> String {
        let clipped = String(text.prefix(width))
        let line = clipped + String(repeating: " ", count: max(0, width - clipped.count))
        return reverse ? "\u{1B}[7m" + line + "\u{1B}[0m" : line
    }
}
