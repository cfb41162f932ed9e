import Provenance
import Templates
import Values

extension StampRecord {
    /// The label of stampcam's own assertion in a photo's C2PA manifest.
    public static let assertionLabel = "org.stampcam.stamp"

    /// What the photo's signed manifest says: how it came to be (`origin`), the stamp drawn on it,
    /// and this record as stampcam's assertion.
    func credentials(style: Template, origin: Credentials.Origin, version: String, zoneAssumed: Bool,
                     chainHead: String?, pixelsSHA256: String? = nil, code: String? = nil) -> Credentials {
        Credentials(generator: "stampcam", version: version.isEmpty ? "unknown" : version, origin: origin,
                    edit: "stamped with the style \(style.name) (\(style.id), version \(style.version))",
                    assertions: [(label: Self.assertionLabel,
                                  content: assertion(style: style, zoneAssumed: zoneAssumed, chainHead: chainHead,
                                                     pixelsSHA256: pixelsSHA256, code: code))])
    }

    /// `org.stampcam.stamp`: a map with text keys, a key absent when its value is unknown. The
    /// unstamped pixels' hash and the code on the stamp join it once the verification code is
    /// derived before stamping (`VerificationCode`).
    func assertion(style: Template, zoneAssumed: Bool, chainHead: String?, pixelsSHA256: String?, code: String?) -> CBORValue {
        var pairs: [(key: CBORValue, value: CBORValue)] = []
        func add(_ key: String, _ value: CBORValue?) { if let value { pairs.append((key: .text(key), value: value)) } }
        func text(_ value: String?) -> CBORValue? { value.map { .text($0.count > Self.maximumValueLength ? String($0.prefix(Self.maximumValueLength)) : $0) } }
        add("version", .integer(1))
        add("software", .text(software))
        add("style", .textMap(["id": .text(styleID), "name": .text(styleName), "version": .integer(styleVersion)]))
        if let time = fields.time {
            var stamped: [(key: CBORValue, value: CBORValue)] = [(key: .text("value"), value: .text(time.iso8601))]
            if let source = fields.timeSource { stamped.append((key: .text("source"), value: .text(source))) }
            if let offset = time.utcOffsetMinutes { stamped.append((key: .text("zone"), value: .text(Self.zone(offset)))) }
            stamped.append((key: .text("zoneAssumed"), value: .bool(zoneAssumed)))
            add("time", .map(stamped))
        }
        if let latitude = fields.latitude, let longitude = fields.longitude {
            var position: [(key: CBORValue, value: CBORValue)] = [(key: .text("latitude"), value: .double(latitude)),
                                                                  (key: .text("longitude"), value: .double(longitude))]
            if let altitude = fields.altitude { position.append((key: .text("altitude"), value: .double(altitude))) }
            if let accuracy = fields.accuracy { position.append((key: .text("accuracy"), value: .double(accuracy))) }
            add("position", .map(position))
        }
        add("user", text(fields.user))
        add("project", text(fields.project))
        add("site", text(fields.site))
        add("note", text(fields.note))
        let shown = style.shownValues(fields)
        if !shown.isEmpty { add("fields", .map(shown.keys.sorted().map { (key: .text($0), value: text(shown[$0])!) })) }
        add("pixelsSHA256", text(pixelsSHA256))
        add("code", text(code))
        add("chainHead", text(chainHead))
        // When it was signed, by this machine's clock: what a verifier shows when no time-stamp authority says.
        add("stamped", text(stampedAt?.iso8601))
        if let original, let originalSHA256 { add("original", .textMap(["name": .text(original), "sha256": .text(originalSHA256)])) }
        if let gps = fields.gpsTime, let system = fields.time, fields.timeSource == "camera clock" {
            var clock: [(key: CBORValue, value: CBORValue)] = [(key: .text("system"), value: .text(system.iso8601)),
                                                               (key: .text("gps"), value: .text(gps.iso8601))]
            if let a = Self.secondsSinceEpoch(system), let b = Self.secondsSinceEpoch(gps) {
                clock.append((key: .text("differenceSeconds"), value: .integer(a - b)))
            }
            add("clock", .map(clock))
        }
        return .map(pairs)
    }

    /// "+08:00", "-03:30", "+00:00".
    static func zone(_ minutes: Int) -> String {
        let magnitude = abs(minutes)
        return (minutes < 0 ? "-" : "+") + zeroPadded(magnitude / 60, 2) + ":" + zeroPadded(magnitude % 60, 2)
    }

    /// Seconds since 1970 of a time with a known zone (days from the civil date, proleptic Gregorian).
    static func secondsSinceEpoch(_ time: Timestamp) -> Int? {
        guard let offset = time.utcOffsetMinutes else { return nil }
        let year = time.month <= 2 ? time.year - 1 : time.year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (time.month + (time.month > 2 ? -3 : 9)) + 2) / 5 + time.day - 1
        let days = era * 146_097 + (yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear) - 719_468
        return days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second - offset * 60
    }
}
