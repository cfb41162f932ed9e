import Capture
import Imaging
import Location
import Platform
import Templates
import Values

/// Which values a stamp shows, decided in one place so the live preview, the review and the saved
/// photo always agree: the values given (command line, config) win; then the photo's own (EXIF time
/// with its zone, Artist, GPS, camera); then the file's modification time or the clock. A stamp
/// claims no more than is known: a camera time without a zone is shown without one (or in `--tz`,
/// when given), never labelled with this computer's zone.
public struct FieldPolicy: Sendable, Equatable {
    /// Values given by the user; they win over the photo's own.
    public var given: Fields
    /// The zone to show times in (`--tz`); nil keeps the photo's own.
    public var zone: Zone?
    /// The position's sources and what it is described with (`--gps`, `--sites`, place names).
    public var whereabouts = Whereabouts()

    public init(given: Fields = Fields(), zone: Zone? = nil) {
        self.given = given
        self.zone = zone
    }

    /// A time zone to show times in.
    public enum Zone: Equatable, Sendable {
        case fixed(minutes: Int)
        case named(String)

        /// `+08:00`, `-0330`, `UTC`/`Z`/`GMT`, or an IANA name such as `Asia/Shanghai`.
        public init?(_ text: String) {
            if ["UTC", "utc", "Z", "z", "GMT"].contains(text) {
                self = .fixed(minutes: 0)
            } else if let probe = Timestamp(iso8601: "2000-01-01T00:00:00" + text), let minutes = probe.utcOffsetMinutes {
                self = .fixed(minutes: minutes)
            } else if WallClock.offsetMinutes(zone: text, at: 0) != nil {
                self = .named(text)
            } else {
                return nil
            }
        }

        /// The zone's offset from UTC at the instant `time` describes (a time without a zone: about then).
        public func offsetMinutes(at time: Timestamp) -> Int {
            switch self {
            case .fixed(let minutes):
                return minutes
            case .named(let identifier):
                let seconds = time.secondsSinceEpoch ?? time.converted(toOffsetMinutes: 0).secondsSinceEpoch ?? 0
                return WallClock.offsetMinutes(zone: identifier, at: seconds) ?? 0
            }
        }
    }

    /// The fields of a photo on disk: given values, then its EXIF, then `fileTime` (its modification time).
    public func fields(for metadata: PhotoMetadata, fileTime: Timestamp? = nil) -> Fields {
        whereabouts.described(ownFields(for: metadata, fileTime: fileTime))
    }

    private func ownFields(for metadata: PhotoMetadata, fileTime: Timestamp?) -> Fields {
        var own = Fields()
        if let original = metadata.dateTimeOriginal, let time = Timestamp(exif: original, offset: metadata.offsetTimeOriginal) {
            own.time = time
            own.timeSource = "EXIF"
        } else if let modified = metadata.dateTime, let time = Timestamp(exif: modified) {
            own.time = time
            own.timeSource = "EXIF"
        } else if let fileTime {
            own.time = fileTime
            own.timeSource = Fields.fileTimeSource
        }
        own.user = metadata.artist
        if let gps = metadata.gps, whereabouts.mode != .off {
            own.latitude = gps.latitude
            own.longitude = gps.longitude
            own.altitude = gps.altitude
            own.heading = gps.heading
        }
        own.camera = Self.camera(make: metadata.make, model: metadata.model)
        return inZone(given.filled(from: own))
    }

    /// Make and model as one name, the make left out when the model already says it: "Canon" +
    /// "Canon EOS 1000D" is "Canon EOS 1000D", "NIKON CORPORATION" + "NIKON D3100" is "NIKON D3100".
    static func camera(make: String?, model: String?) -> String? {
        let make = make?.trimmingWhitespace, model = model?.trimmingWhitespace
        guard let model, !model.isEmpty else { return make?.isEmpty == false ? make : nil }
        guard let make, !make.isEmpty else { return model }
        let brand = make.split(separator: " ").first.map { $0.lowercased() } ?? ""
        let modelWords = model.lowercased().split(separator: " ")
        if model.lowercased().hasPrefix(make.lowercased()) || modelWords.first.map(String.init) == brand {
            return model
        }
        return make + " " + model
    }

    /// The fields of a photo just taken: its capture time (the camera's clock) and camera.
    public func fields(forCapture still: CapturedStill) -> Fields {
        captureFields(for: still).fields
    }

    /// The fields of a photo just taken, with the live GPS fix read now, and what was made of it
    /// (nil when no live fix is wanted, or `auto` found no receiver).
    public func captureFields(for still: CapturedStill) -> (fields: Fields, gps: FixStatus?) {
        var fields = ownFields(for: still.photo.metadata, fileTime: nil)
        // The photo was taken now: a time given by hand is shown marked, and its EXIF keeps the clock's.
        fields.timeSource = given.time == nil ? "camera clock" : Fields.givenTimeSource
        let live = whereabouts.withLiveFix(fields)
        return (whereabouts.described(live.fields), live.status)
    }

    /// The fields of a picture without its own (the test card, a style sheet): the clock's time now.
    public func fieldsNow(camera: String? = nil) -> Fields {
        fieldsNow(camera: camera, live: false).fields
    }

    /// The fields of a live preview (`shoot`, `serve`), as the photo taken now will have them, with
    /// what was made of the live GPS fix.
    public func liveFields(camera: String? = nil) -> (fields: Fields, gps: FixStatus?) {
        fieldsNow(camera: camera, live: true)
    }

    private func fieldsNow(camera: String?, live: Bool) -> (fields: Fields, gps: FixStatus?) {
        var fields = inZone(given.filled(from: Fields(time: Self.clockTime(), timeSource: "clock", camera: camera)))
        if live && given.time != nil { fields.timeSource = Fields.givenTimeSource }
        let live = whereabouts.withLiveFix(fields)
        return (whereabouts.described(live.fields), live.status)
    }

    /// The fields of a photo stamped again from its record: given values win over the recorded ones.
    public func fields(recorded: Fields) -> Fields {
        inZone(given.filled(from: recorded))
    }

    /// The time as the local clock shows it now.
    public static func clockTime() -> Timestamp {
        let now = WallClock.now()
        return Timestamp(secondsSinceEpoch: now.secondsSinceEpoch, utcOffsetMinutes: now.utcOffsetMinutes)
    }

    /// This system's offset from UTC, in minutes, for a wall time in its zone.
    public static func localOffsetMinutes(forWallTime time: Timestamp) -> Int {
        var labelled = time
        labelled.utcOffsetMinutes = 0
        let utc = labelled.secondsSinceEpoch ?? 0
        return WallClock.localOffsetMinutes(at: utc - WallClock.localOffsetMinutes(at: utc) * 60)
    }

    /// A file's modification time in the local zone.
    public static func fileTime(modified secondsSinceEpoch: Int) -> Timestamp {
        Timestamp(secondsSinceEpoch: secondsSinceEpoch, utcOffsetMinutes: WallClock.localOffsetMinutes(at: secondsSinceEpoch))
    }

    /// The zone a photo at `fields`' position is shown in: its site's (`timezone` in the sites
    /// file), else `--tz`; nil for neither.
    public func zone(for fields: Fields) -> Zone? {
        if let latitude = fields.latitude, let longitude = fields.longitude,
           let name = whereabouts.sites?.site(latitude: latitude, longitude: longitude)?.timeZone {
            return .named(name)
        }
        return zone
    }

    /// `time` (an instant) as the clocks at `fields`' position show it: in its site's zone, else
    /// `--tz`, else this machine's.
    public func shown(_ time: Timestamp, for fields: Fields) -> Timestamp {
        guard let zone = zone(for: fields) else {
            guard time.utcOffsetMinutes == nil, let seconds = time.secondsSinceEpoch else { return time }
            return Timestamp(secondsSinceEpoch: seconds, utcOffsetMinutes: WallClock.localOffsetMinutes(at: seconds))
        }
        return time.converted(toOffsetMinutes: zone.offsetMinutes(at: time))
    }

    /// Shows the time in `zone` (`--tz`; a time of unknown zone is taken to be in it). Without
    /// `--tz`, a time of unknown zone stays without one: the photo does not say where it was taken,
    /// and this computer's zone today says nothing about that.
    func inZone(_ fields: Fields) -> Fields {
        var result = fields
        guard let time = fields.time, let zone else { return result }
        result.time = time.converted(toOffsetMinutes: zone.offsetMinutes(at: time))
        return result
    }
}
