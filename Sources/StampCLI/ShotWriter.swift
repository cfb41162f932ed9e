import Capture
import Foundation
import Imaging
import Library
import Templates

/// Saves a captured still for `shoot`: stamped in the chosen style under a fresh name in the photo
/// folder (never over an existing file), optionally with the unstamped original and a sidecar JSON to
/// re-stamp it in another style later, then runs `--exec` with the saved path. The still itself is
/// left unstamped, so a failed save can be retried or the style changed.
struct ShotWriter {
    let folder: String
    /// `--name`; nil for `YYYYMMDD-HHMMSS-NNNN.jpg`.
    let nameTemplate: TextTemplate?
    let keepOriginal: Bool
    let exec: String?
    let stamper: Stamper

    static let options: [OptionSpec] = [
        OptionSpec("output", short: "o", value: "DIR", help: "folder for the photos (default $XDG_PICTURES_DIR/stampcam or ~/Pictures/stampcam)"),
        OptionSpec("name", value: "TEMPLATE", help: "file name from template variables (default: YYYYMMDD-HHMMSS-NNNN.jpg)"),
        OptionSpec("keep-original", help: "also save the unstamped photo and a sidecar JSON to re-stamp it later"),
        OptionSpec("exec", value: "CMD", help: "run CMD after each save with the photo's path ({} in CMD, else added at the end)"),
        OptionSpec("quality", value: "Q", help: "JPEG quality 1-100 (default 92)"),
    ]

    init(_ options: ParsedOptions, stamper: Stamper) throws(UsageError) {
        folder = options.value("output") ?? PicturesFolder.locate()
        if let name = options.value("name") {
            do { nameTemplate = try TextTemplate(name) } catch {
                throw .badValue(option: "--name", value: name, expected: "a name template (\(error))")
            }
        } else {
            nameTemplate = nil
        }
        keepOriginal = options.flag("keep-original")
        exec = options.value("exec")
        self.stamper = stamper
    }

    /// The fields of a shot: the command line's, then the capture's own (time, camera).
    func fields(for still: CapturedStill) -> Fields {
        var fields = stamper.fieldOptions.fields(for: still.photo.metadata)
        if stamper.fieldOptions.given.time == nil { fields.timeSource = "camera clock" }
        return fields
    }

    /// Stamps and writes `still` in `style`; returns the stamped photo's path. Problems that leave the
    /// photo saved (a failed --exec) go to `warn`.
    func save(_ still: CapturedStill, style: Template, warn: (String) -> Void) throws -> String {
        try OutputFolders.create(folder)
        let number = PhotoName.nextShotNumber(in: folder)
        var fields = fields(for: still)
        fields.sequence = number
        let name = nameTemplate.map { PhotoName.make(template: $0, input: "photo.jpg", fields: fields) }
            ?? PhotoName.shot(exifTime: still.metadata.exifDateTime, number: number)
        fields.filename = name
        let jpeg = try stamper.stampedJPEG(still.photo, fields: fields, style: style)
        let path = try AtomicFile.write(jpeg, directory: folder, name: name)
        if keepOriginal {
            let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            let original = try AtomicFile.write(try still.jpeg(quality: stamper.quality), directory: folder,
                                                name: stem + ".original.jpg")
            let sidecar = Sidecar(photo: path, original: original, template: style, fields: fields,
                                  capture: still.metadata.summary, version: StampCLI.version)
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
