import Foundation
import Imaging
import Library
import Templates

/// Saves a captured still for `shoot`: stamped in the chosen style under a fresh name in the photo
/// folder (never over an existing file), optionally with the unstamped original and a sidecar JSON to
/// re-stamp it in another style later, then runs `--exec` with the saved path.
struct ShotWriter {
    let folder: String
    let nameTemplate: TextTemplate
    let keepOriginal: Bool
    let exec: String?
    let stamper: Stamper
    /// Capture settings for the sidecar (device, resolution, flash …).
    var settings: [String: String] = [:]

    static let defaultName = "{datetime:%Y%m%d-%H%M%S}-{seq:04}.jpg"

    /// Stamps and writes `still`; returns the stamped photo's path. Warnings (a failed --exec) go to `warn`.
    func save(_ still: [UInt8], style: Template, fields: Fields, warn: (String) -> Void) throws -> String {
        let photo = try Photo(jpeg: still, options: stamper.load)
        let jpeg = try stamper.stampedJPEG(photo, fields: fields, style: style)
        try OutputFolders.create(folder)
        let name = OutputName.make(template: nameTemplate, input: "photo.jpg", fields: fields)
        let path = try AtomicFile.write(jpeg, directory: folder, name: name)
        if keepOriginal {
            let stem = (((path as NSString).lastPathComponent) as NSString).deletingPathExtension
            let original = try AtomicFile.write(still, directory: folder, name: stem + ".original.jpg")
            let sidecar = Sidecar(photo: path, original: original, template: style, fields: fields, settings: settings)
            try AtomicFile.write(try sidecar.json(), directory: folder, name: stem + ".json")
        }
        if let exec { run(exec, path: path, warn: warn) }
        return path
    }

    /// `--exec CMD`: `{}` in CMD is replaced by the path (quoted), else the path is added at the end.
    private func run(_ command: String, path: String, warn: (String) -> Void) {
        let quoted = "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let line = command.contains("{}") ? command.replacingOccurrences(of: "{}", with: quoted) : command + " " + quoted
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", line]
        do {
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus != 0 {
                warn("--exec: '\(line)' exited with \(process.terminationStatus); the photo is saved at \(path)")
            }
        } catch {
            warn("--exec: cannot run /bin/sh: \(error)")
        }
    }
}

/// What a kept original needs to be stamped again later: the style and the values used.
struct Sidecar: Encodable {
    let stampcam = StampCLI.version
    let photo: String
    let original: String
    let template: TemplateInfo
    let fields: FieldValues
    let settings: [String: String]

    struct TemplateInfo: Encodable {
        let id: String
        let name: String
        let version: Int
    }

    struct FieldValues: Encodable {
        let time: String?
        let timeSource: String?
        let user, project, location, note, camera: String?
        let latitude, longitude, altitude: Double?
        let sequence: Int?
        let extra: [String: String]
    }

    init(photo: String, original: String, template: Template, fields: Fields, settings: [String: String]) {
        self.photo = (photo as NSString).lastPathComponent
        self.original = (original as NSString).lastPathComponent
        self.template = TemplateInfo(id: template.id, name: template.name, version: template.version)
        self.fields = FieldValues(time: fields.time?.iso8601, timeSource: fields.timeSource, user: fields.user,
                                  project: fields.project, location: fields.location, note: fields.note,
                                  camera: fields.camera, latitude: fields.latitude, longitude: fields.longitude,
                                  altitude: fields.altitude, sequence: fields.sequence, extra: fields.extra)
        self.settings = settings
    }

    func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0A]
    }
}
