import Imaging
import Templates

/// The stamp field options shared by the commands that stamp, and how they combine with a photo's EXIF.
enum FieldOptions {
    static let table: [OptionSpec] = [
        OptionSpec("time", value: "ISO8601", help: "time to stamp, e.g. 2026-11-29T14:03:12+08:00 (default: from EXIF)"),
        OptionSpec("user", value: "NAME", help: "who took the photo (default: EXIF Artist)"),
        OptionSpec("project", value: "NAME", help: "project or job the photo is for"),
        OptionSpec("location", value: "TEXT", help: "where the photo was taken (default: EXIF GPS coordinates)"),
    ]

    /// Fields given on the command line; nil members are filled from each photo.
    static func parse(_ options: ParsedOptions) throws(UsageError) -> Fields {
        var fields = Fields()
        if let text = options.value("time") {
            guard let time = Timestamp(iso8601: text) else {
                throw .badValue(option: "--time", value: text, expected: "an ISO 8601 time like 2026-11-29T14:03:12+08:00")
            }
            fields.time = time
        }
        fields.user = options.value("user")
        fields.project = options.value("project")
        fields.location = options.value("location")
        return fields
    }

    /// Command-line fields win; the photo's EXIF fills the rest.
    static func merge(_ given: Fields, with metadata: PhotoMetadata) -> Fields {
        var fields = given
        if fields.time == nil, let original = metadata.dateTimeOriginal {
            fields.time = Timestamp(exif: original, offset: metadata.offsetTimeOriginal)
        }
        if fields.time == nil, let modified = metadata.dateTime {
            fields.time = Timestamp(exif: modified)
        }
        if fields.user == nil { fields.user = metadata.artist }
        if fields.latitude == nil, let gps = metadata.gps {
            fields.latitude = gps.latitude
            fields.longitude = gps.longitude
            fields.altitude = gps.altitude
        }
        if fields.camera == nil {
            fields.camera = [metadata.make, metadata.model].compactMap { $0 }.joined(separator: " ")
        }
        return fields
    }
}
