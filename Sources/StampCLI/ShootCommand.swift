import Capture
import Foundation
import Imaging
import Library
import Templates

/// `stampcam shoot --yes`: takes one photo with a camera (or the test pattern), stamps it and
/// saves it under a new name; prints the saved path.
enum ShootCommand: Command {
    static let spec = CommandSpec(
        name: "shoot",
        usage: "shoot --yes [--device D] [options] [-o DIR]",
        summary: "Take a photo, stamp it and save it as DIR/YYYYMMDD-HHMMSS-NNNN.jpg; prints the path.",
        options: [
            OptionSpec("yes", short: "y", help: "take the photo at once, without a preview"),
            OptionSpec("output", short: "o", value: "DIR", help: "folder for the photo (default $XDG_PICTURES_DIR/stampcam or ~/Pictures/stampcam)"),
            OptionSpec("quality", value: "Q", help: "JPEG quality 1-100 (default 92)"),
        ] + CaptureOptions.table + FieldOptions.table + [
            OptionSpec("help", short: "h", help: "show this help"),
        ])

    static func run(_ options: ParsedOptions, resources: Resources, console: Console) throws -> ExitCode {
        guard options.flag("yes") else {
            throw UsageError.missing("--yes to take a photo without the interactive preview", command: spec.name)
        }
        let capture = try CaptureOptions(options)
        let quality = try options.integer("quality", in: 1...100, default: 92)
        // Template and folder problems show before the camera is touched.
        let stamper = try Stamper(resources: resources, fieldOptions: try FieldOptions(options),
                                  load: LoadOptions(maxSize: 0), quality: quality)
        let folder = options.value("output") ?? PicturesFolder.locate()
        try OutputFolders.create(folder)
        let still = try Failure.capturing { () throws -> CapturedStill in
            var device = capture.device
            if device == nil {
                let fallback = Cameras.defaultDevice()
                if let note = fallback.note { console.err("stampcam: note: " + note) }
                device = fallback.device
            }
            let camera = try Camera.open(device ?? Cameras.testDevice, settings: capture.settings)
            defer { camera.close() }
            for note in camera.takeNotes() { console.err("stampcam: note: " + note) }
            let still = try camera.captureStill()
            for note in camera.takeNotes() { console.err("stampcam: note: " + note) }
            return still
        }
        let number = ShotName.nextNumber(in: folder)
        let name = ShotName.make(still.metadata, number: number)
        var fields = stamper.fieldOptions.fields(for: still.photo.metadata)
        if stamper.fieldOptions.given.time == nil { fields.timeSource = "clock" }
        fields.filename = name
        fields.sequence = number
        let jpeg = try stamper.stampedJPEG(still.photo, fields: fields)
        console.out(try AtomicFile.write(jpeg, directory: folder, name: name))
        return .success
    }
}

/// Names of shot photos: `20261129-142233-0001.jpg`, the capture's local time and a running number.
enum ShotName {
    static func make(_ metadata: CaptureMetadata, number: Int) -> String {
        // "2026:11:29 14:22:33" → "20261129-142233"
        let stamp = metadata.exifDateTime.filter { $0 != ":" }.replacingOccurrences(of: " ", with: "-")
        let digits = String(number)
        return stamp + "-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".jpg"
    }

    /// One more than the highest number of a shot already in `folder`, so numbers keep counting up.
    static func nextNumber(in folder: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let highest = names.compactMap { name -> Int? in
            let parts = name.split(separator: "-")
            guard parts.count == 3, parts[0].count == 8, parts[1].count == 6, parts[2].hasSuffix(".jpg") else { return nil }
            return Int(parts[2].dropLast(4))
        }.max() ?? 0
        return highest + 1
    }
}
