/// The shoot state machine: preview → capture → review → retake / use → save. Pure: it decides, the
/// caller does (capture, render, save) and reports back with events.
public struct ShootSession: Sendable {
    public private(set) var state: ShootState
    private var nextShot = 1

    public init(_ state: ShootState) { self.state = state }

    /// Applies `event` and returns what the caller must do now.
    public mutating func handle(_ event: ShootEvent) -> [ShootEffect] {
        respond(to: event) ?? []
    }

    /// Applies `event` and returns what the caller must do now; nil when the event means nothing in
    /// this phase (`use` in the viewfinder, zoom while a photo is being taken), which changes nothing.
    /// A front end that must answer every request (the browser's API) tells these apart.
    public mutating func respond(to event: ShootEvent) -> [ShootEffect]? {
        var effects: [ShootEffect] = []
        var s = state
        var meaningful = true
        // A new action replaces an old notice ("No other camera to switch to" must not hide the
        // zoom the next key changes); a failed capture's reason stays until it is retaken.
        if s.isLive, Self.isLiveControl(event) {
            if case .failed = s.phase {} else { s.message = nil }
        }
        switch (s.phase, event) {
        case (.finished, _):
            meaningful = false

        // Quitting: only an unsaved photo makes it ask.
        case (.confirmingQuit, .confirm(true)), (.confirmingQuit, .quit):
            if let shot = s.shot { effects.append(.discard(shot)) }  // dropped by the user's choice
            s.shot = nil
            s.phase = .finished
            effects.append(.exit)
        case (.confirmingQuit, .confirm(false)):
            s.phase = .reviewing  // only a photo under review can be unsaved
            s.message = nil
        case (.confirmingQuit, _):
            meaningful = false
        case (.saving, .quit):
            meaningful = false  // a save takes a moment; quitting waits for its result rather than race it
        case (_, .quit):
            if s.hasUnsavedShot {
                s.phase = .confirmingQuit
                s.message = "Quit without saving the photo? (y/n)"
            } else {
                s.phase = .finished
                effects.append(.exit)
            }

        // Taking a photo.
        case (.viewfinder, .shutter), (.saved, .shutter), (.failed, .shutter):
            let id = ShotID(nextShot)
            nextShot += 1
            s.phase = .capturing
            s.message = nil
            effects.append(.capture(id))
        case (.capturing, .captured(let id)):
            s.shot = id
            s.phase = .reviewing
            s.message = nil
            effects.append(.renderShot(id, style: s.style))
        case (.capturing, .captureFailed(let message)):
            s.phase = .failed(message: message)
            s.message = message

        // Reviewing: restyle the same shot, retake, or use it.
        case (.reviewing, .nextStyle), (.reviewing, .previousStyle):
            s.style = cycled(s.style, by: event == .nextStyle ? 1 : -1, count: s.styleCount)
            if let shot = s.shot { effects.append(.renderShot(shot, style: s.style)) }
        case (.reviewing, .chooseStyle(let index)) where s.styleCount > index && index >= 0:
            if index != s.style {
                s.style = index
                if let shot = s.shot { effects.append(.renderShot(shot, style: s.style)) }
            }
        case (.reviewing, .retake):
            if let shot = s.shot { effects.append(.discard(shot)) }
            s.shot = nil
            s.phase = .viewfinder
            s.message = nil
        case (.reviewing, .use):
            guard let shot = s.shot else { break }
            s.phase = .saving
            s.message = nil
            effects.append(.save(shot, style: s.style))
        case (.saving, .saved(let id, let path)) where id == s.shot:
            s.shot = nil
            s.phase = .saved(path: path)
            s.message = "Saved \(path)"
            effects.append(.discard(id))
        case (.saving, .saveFailed(let id, let message)) where id == s.shot:
            // Nothing is lost: back to review with the photo, to retry or change something.
            s.phase = .reviewing
            s.message = "Not saved: \(message)"

        // Live controls: in the viewfinder (and after a save or a failed capture).
        case (_, .nextStyle) where s.isLive, (_, .previousStyle) where s.isLive:
            s.style = cycled(s.style, by: event == .nextStyle ? 1 : -1, count: s.styleCount)
        case (_, .cycleFlash) where s.isLive && s.flashModes.count < 2:
            s.message = "This camera has no flash or torch to switch"
        case (_, .switchCamera) where s.isLive && s.cameraCount < 2:
            s.message = "No other camera to switch to"
        case (_, .chooseStyle(let index)) where s.isLive && s.styleCount > index && index >= 0:
            s.style = index
        case (_, .cycleFlash) where s.isLive:
            s.message = nil
            let index = s.flashModes.firstIndex(of: s.flash) ?? 0
            s.flash = s.flashModes[(index + 1) % s.flashModes.count]
            effects.append(.setFlash(s.flash))
        case (_, .setFlash(let mode)) where s.isLive && s.flashModes.contains(mode):
            if mode != s.flash {
                s.flash = mode
                effects.append(.setFlash(mode))
            }
        case (_, .zoomIn) where s.isLive, (_, .zoomOut) where s.isLive:
            let zoom = event == .zoomIn ? min(s.maxZoom, s.zoom * 1.25) : max(1, s.zoom / 1.25)
            if zoom != s.zoom {
                s.zoom = zoom
                effects.append(.setZoom(zoom))
            }
        case (_, .setZoom(let factor)) where s.isLive && factor.isFinite:
            let zoom = min(s.maxZoom, max(1, factor))
            if zoom != s.zoom {
                s.zoom = zoom
                effects.append(.setZoom(zoom))
            }
        case (_, .switchCamera) where s.isLive:
            if s.cameraCount > 1 {
                s.camera = (s.camera + 1) % s.cameraCount
                s.zoom = 1
                s.flash = .off
                effects.append(.switchCamera(s.camera))
            }
        case (_, .focus) where s.isLive:
            effects.append(.triggerFocus(.auto))
        case (_, .focusAt(let x, let y)) where s.isLive && (0...1).contains(x) && (0...1).contains(y):
            effects.append(.triggerFocus(.point(x: x, y: y)))
        case (.failed, .retake):
            s.phase = .viewfinder
            s.message = nil

        default:
            meaningful = false  // an event that means nothing here (e.g. use in the viewfinder) changes nothing
        }
        guard meaningful else { return nil }
        state = s
        return effects
    }

    /// Events that change a live control: style, flash, zoom, camera, focus.
    private static func isLiveControl(_ event: ShootEvent) -> Bool {
        switch event {
        case .nextStyle, .previousStyle, .chooseStyle, .cycleFlash, .setFlash, .zoomIn, .zoomOut, .setZoom,
             .switchCamera, .focus, .focusAt: return true
        default: return false
        }
    }

    private func cycled(_ index: Int, by step: Int, count: Int) -> Int {
        ((index + step) % count + count) % count
    }
}
