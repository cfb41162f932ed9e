import Capture
import Imaging
import Library
import Platform
import Session
import Templates

/// The watermark camera on a terminal: keys become the controller's events, its snapshots become
/// the screen — the live picture or the shot under review in truecolor half blocks, a status line
/// and the keys. Works locally, over SSH and inside tmux.
final class ShootScreen {
    private let terminal = Terminal()
    private let controller: ShootController
    /// A camera note, a warning or an error, shown until the next key.
    private var notice: String?
    private var lastSize = (columns: 0, rows: 0)
    private var lastSaved: String?
    /// "Saved PATH" shows this long, then the status line comes back.
    private var savedUntil = 0.0
    static let savedSeconds = 4.0
    /// The values given (user, project, place), shown on the status line.
    private let fields: Fields

    init(controller: ShootController, fields: Fields = Fields()) {
        self.controller = controller
        self.fields = fields
    }

    /// Runs until the user quits; the terminal is restored on every way out.
    func run() -> ExitCode {
        guard terminal.enterRawMode() else { return .unavailable }
        defer { terminal.restore() }
        while true {
            let size = terminal.size
            // Pictures at twice the half-block grid, so the stamp is drawn sharp before it is reduced.
            controller.previewSize = (size.columns * 2, max(1, size.rows - 2) * 4)
            for key in terminal.readKeys() {
                if key == .interrupt { return .interrupted }
                notice = nil
                if let event = Self.event(for: key, in: controller.snapshot().state.phase) { controller.send(event) }
            }
            let snapshot = controller.snapshot(takeNotices: true)
            if snapshot.state.phase == .finished { return .success }
            if let new = snapshot.notices.last { notice = new.text }
            if let saved = snapshot.lastSaved, saved.path != lastSaved {
                lastSaved = saved.path
                if let warning = saved.warnings.first { notice = warning }
                savedUntil = WallClock.monotonic() + Self.savedSeconds
            }
            draw(snapshot)
        }
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

    private func draw(_ snapshot: ShootController.Snapshot) {
        let size = terminal.size
        if size != lastSize {
            terminal.write("\u{1B}[2J")  // resized: clear what the old layout left
            lastSize = size
        }
        let rows = max(1, size.rows - 2)
        let lines = snapshot.picture.map { HalfBlocks.render($0, columns: size.columns, rows: rows) }
            ?? HalfBlocks.blank(columns: size.columns, rows: rows)
        var screen = "\u{1B}[H" + lines.joined(separator: "\n")
        screen += "\n" + Self.bar(statusText(snapshot), width: size.columns, reverse: true)
        screen += "\n" + Self.bar(Self.help(for: snapshot.state.phase, width: size.columns), width: size.columns, reverse: false)
        terminal.write(screen)
    }

    private func statusText(_ snapshot: ShootController.Snapshot) -> String {
        Self.status(snapshot, notice: notice, fields: fields, showSaved: WallClock.monotonic() < savedUntil)
    }

    /// The status line: what is happening, a message, or the camera, size, flash, style, zoom,
    /// folder and the values given. "Saved PATH" only while `showSaved`.
    static func status(_ snapshot: ShootController.Snapshot, notice: String?, fields: Fields, showSaved: Bool) -> String {
        let state = snapshot.state
        switch state.phase {
        case .capturing: return "Taking the photo…"
        case .saving: return "Saving…"
        default: break
        }
        var message = state.message
        if case .saved = state.phase, !showSaved { message = nil }
        if let message = message ?? notice { return PathEncoding.display(message) }
        let style = "style \(snapshot.styleNames[state.style]) (\(state.style + 1)/\(state.styleCount))"
        let given = [fields.user, fields.project, fields.location].compactMap { $0 }.filter { !$0.isEmpty }
        let values = given.isEmpty ? "" : "  · " + given.joined(separator: " · ")
        if state.phase == .reviewing {
            return "REVIEW — not saved  \(style)\(values)  → \(PathEncoding.display(snapshot.folder))"
        }
        // A digital zoom crops: the photo is the frame divided by the zoom.
        var size = "\(snapshot.frameSize)"
        if snapshot.zoomCrops && state.zoom > 1 {
            size = "\(Int(Double(snapshot.frameSize.width) / state.zoom))x\(Int(Double(snapshot.frameSize.height) / state.zoom))"
        }
        return "\(snapshot.camera) \(size)  flash \(state.flash.rawValue)  \(style)  zoom \(ProgressLine.oneDecimal(state.zoom))×\(values)"
            + "  → \(PathEncoding.display(snapshot.folder))"
    }

    /// The keys of a phase, fitted to `width` columns: spacing shrinks, then keys from the middle
    /// go, so "q quit" is always there.
    static func help(for phase: ShootState.Phase, width: Int = .max) -> String {
        var keys: [String]
        switch phase {
        case .reviewing: keys = ["u/Enter use", "r retake", "←/→ style", "q quit"]
        case .confirmingQuit: keys = ["y quit without saving", "n go back"]
        case .capturing, .saving: return "…"
        default: keys = ["Space shoot", "←/→ style", "f flash", "c camera", "+/- zoom", "a focus", "q quit"]
        }
        while true {
            for separator in ["   ", "  ", " "] {
                let line = keys.joined(separator: separator)
                if line.count <= width { return line }
            }
            guard keys.count > 2 else { return keys.joined(separator: " ") }
            keys.remove(at: keys.count - 2)
        }
    }

    /// One screen line of exactly `width` cells.
    static func bar(_ text: String, width: Int, reverse: Bool) -> String {
        let line = TextWidth.padded(fitted(text, width: width), width: width)
        return reverse ? "\u{1B}[7m" + line + "\u{1B}[0m" : line
    }

    /// `text` in `width` cells: whole, or cut after its last word that fits and ended with "…" (a
    /// word without a space to cut at is cut where it reaches the edge).
    static func fitted(_ text: String, width: Int) -> String {
        guard TextWidth.columns(text) > width else { return text }
        let cut = TextWidth.fitted(text, width: width).dropLast()  // without its "…"
        guard let space = cut.lastIndex(of: " "), cut[..<space].contains(where: { $0 != " " }) else { return String(cut) + "…" }
        let kept = cut[..<space]
        return String(kept.reversed().drop { $0 == " " || $0 == "·" || $0 == "→" }.reversed()) + "…"
    }
}
