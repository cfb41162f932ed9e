#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Imaging
import Templates

/// The stamp options shared by every command that stamps (`apply`, `test-card`, `styles --sheet`,
/// later `shoot`): the template and the field values, and how they combine with a photo's EXIF.
struct FieldOptions {
    static let table: [OptionSpec] = [
        OptionSpec("template", short: "t", value: "ID|FILE", help: "watermark style: an id from 'stampcam styles' or a .json file (default classic)"),
        OptionSpec("template-dir", value: "DIR", help: "also load templates from DIR (repeatable)"),
        OptionSpec("time", value: "ISO8601", help: "time to stamp, e.g. 2026-11-29T14:03:12+08:00 (default: from EXIF)"),
        OptionSpec("tz", value: "ZONE", help: "show times in ZONE: +08:00, UTC or a name like Asia/Shanghai"),
        OptionSpec("user", value: "NAME", help: "who took the photo (default: EXIF Artist)"),
        OptionSpec("project", value: "NAME", help: "project or job the photo is for"),
        OptionSpec("location", value: "TEXT", help: "where the photo was taken (default: EXIF GPS coordinates)"),
        OptionSpec("note", value: "TEXT", help: "a note to print on the photo"),
        OptionSpec("gps", value: "LAT,LON", help: "coordinates in decimal degrees, e.g. 48.8584,2.2945 (default: EXIF GPS)"),
        OptionSpec("set", value: "KEY=VALUE", help: "a value for {KEY} in templates (repeatable)"),
    ]

    /// Values from the command line; they win over the photo's own.
    var given: Fields
    /// The zone to show times in, when --tz was given.
    var zone: Zone?
    var templateChoice: String?
    var templateFolders: [String]

    enum Zone: Equatable {
        case fixed(minutes: Int)
        case named(String)

        /// The zone's UTC offset at the instant `time` describes.
        func offsetMinutes(at time: Timestamp) -> Int {
            switch self {
            case .fixed(let minutes):
                return minutes
            case .named(let identifier):
                let seconds = time.secondsSinceEpoch ?? time.converted(toOffsetMinutes: 0).secondsSinceEpoch ?? 0
                let zone = TimeZone(identifier: identifier)
                return (zone?.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))) ?? 0) / 60
            }
        }
    }

    init(_ options: ParsedOptions) throws(UsageError) {
        given = Fields()
        if let text = options.value("time") {
            guard let time = Timestamp(iso8601: text) else {
                throw .badValue(option: "--time", value: text, expected: "an ISO 8601 time like 2026-11-29T14:03:12+08:00")
            }
            given.time = time
            given.timeSource = "command line"
        }
        if let text = options.value("tz") {
            zone = try Self.zone(text)
        }
        given.user = options.value("user")
        given.project = options.value("project")
        given.location = options.value("location")
        given.note = options.value("note")
        if let text = options.value("gps") {
            let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let latitude = parts[0], let longitude = parts[1],
                  abs(latitude) <= 90, abs(longitude) <= 180 else {
                throw .badValue(option: "--gps", value: text, expected: "LAT,LON in decimal degrees like 48.8584,2.2945")
            }
            given.latitude = latitude
            given.longitude = longitude
        }
        for pair in options.values["set"] ?? [] {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw .badValue(option: "--set", value: pair, expected: "KEY=VALUE")
            }
            given.extra[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        templateChoice = options.value("template")
        templateFolders = options.values["template-dir"] ?? []
    }

    static func zone(_ text: String) throws(UsageError) -> Zone {
        if ["UTC", "utc", "Z", "z", "GMT"].contains(text) { return .fixed(minutes: 0) }
        if let probe = Timestamp(iso8601: "2000-01-01T00:00:00" + text), let minutes = probe.utcOffsetMinutes {
            return .fixed(minutes: minutes)
        }
        if TimeZone(identifier: text) != nil { return .named(text) }
        throw .badValue(option: "--tz", value: text, expected: "a zone like +08:00, UTC or Europe/Paris")
    }

    /// The fields for one photo: command line first, then EXIF, then the file's modification time.
    func fields(for metadata: PhotoMetadata, fileTime: Timestamp? = nil) -> Fields {
        var fromPhoto = Fields()
        if let original = metadata.dateTimeOriginal, let time = Timestamp(exif: original, offset: metadata.offsetTimeOriginal) {
            fromPhoto.time = time
            fromPhoto.timeSource = "EXIF"
        } else if let modified = metadata.dateTime, let time = Timestamp(exif: modified) {
            fromPhoto.time = time
            fromPhoto.timeSource = "EXIF"
        } else if let fileTime {
            fromPhoto.time = fileTime
            fromPhoto.timeSource = "file time"
        }
        fromPhoto.user = metadata.artist
        if let gps = metadata.gps {
            fromPhoto.latitude = gps.latitude
            fromPhoto.longitude = gps.longitude
            fromPhoto.altitude = gps.altitude
        }
        let camera = [metadata.make, metadata.model].compactMap { $0 }
        // Models often repeat the make ("Canon" + "Canon EOS 1000D").
        if let make = metadata.make, let model = metadata.model, model.lowercased().hasPrefix(make.lowercased()) {
            fromPhoto.camera = model
        } else if !camera.isEmpty {
            fromPhoto.camera = camera.joined(separator: " ")
        }
        return withZone(given.filled(from: fromPhoto))
    }

    /// The fields for a picture without a photo's own (the test card, a live preview): the command
    /// line's, with the clock's time when none was given.
    func fieldsNow() -> Fields {
        withZone(given.filled(from: Fields(time: Clock.now(), timeSource: "clock")))
    }

    /// Shows the time in --tz, or labels a time of unknown zone with the local zone.
    func withZone(_ fields: Fields) -> Fields {
        var result = fields
        guard let time = fields.time else { return result }
        if let zone {
            result.time = time.converted(toOffsetMinutes: zone.offsetMinutes(at: time))
        } else if time.utcOffsetMinutes == nil {
            result.time = time.converted(toOffsetMinutes: Clock.localOffsetMinutes(at: time))
        }
        return result
    }
}
