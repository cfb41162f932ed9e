import Capture
import Library
import Platform
import Session
import Templates
import Values

/// What the page shows, taken from a controller snapshot: the phase, the line to show, the style,
/// flash, zoom, camera and field values. Equal values mean nothing for the page to redraw.
struct WebState: Sendable, Equatable {
    var phase: String
    /// A line for the status bar: "Saved NAME", an error, nil for none.
    var message: String?
    var isError: Bool
    var style: Int
    var styleNames: [String]
    var flash: FlashMode
    var flashModes: [FlashMode]
    var zoom: Double
    var maxZoom: Double
    var camera: String
    var cameraIndex: Int
    var cameraCount: Int
    var frameWidth: Int
    var frameHeight: Int
    var fields: Fields
    /// The values given that the style does not show.
    var fieldsNotShown: [String]
    var folder: String
    /// The file name of the last photo saved.
    var lastSaved: String?
    var shotCount: Int
    /// A photo is under review and not saved.
    var unsaved: Bool

    init(_ snapshot: ShootController.Snapshot, shots: Int) {
        let state = snapshot.state
        switch state.phase {
        case .viewfinder: phase = "viewfinder"
        case .capturing: phase = "capturing"
        case .reviewing: phase = "reviewing"
        case .saving: phase = "saving"
        case .saved: phase = "saved"
        case .failed: phase = "failed"
        case .confirmingQuit: phase = "reviewing"  // the browser never asks to quit
        case .finished: phase = "finished"
        }
        switch state.phase {
        case .saved(let path):
            message = "Saved " + PathEncoding.display(PhotoName.lastComponent(path))
            isError = false
        case .failed(let text):
            message = PathEncoding.display(text)
            isError = true
        default:
            message = state.message.map(PathEncoding.display)
            isError = state.message?.hasPrefix("Not saved") ?? false
        }
        style = state.style
        styleNames = snapshot.styleNames
        flash = state.flash
        flashModes = state.flashModes
        zoom = state.zoom
        maxZoom = state.maxZoom
        camera = snapshot.camera
        cameraIndex = state.camera
        cameraCount = state.cameraCount
        frameWidth = snapshot.frameSize.width
        frameHeight = snapshot.frameSize.height
        fields = snapshot.fields.given
        fieldsNotShown = snapshot.fieldsNotShown
        folder = PathEncoding.display(snapshot.folder)
        lastSaved = snapshot.lastSaved.map { PathEncoding.display(PhotoName.lastComponent($0.path)) }
        shotCount = shots
        unsaved = state.hasUnsavedShot
    }
}
