import FoundationEssentials
import Templates
import Values

/// What a kept original needs to be stamped again later: the style and the values used. Written as
/// JSON beside the photo; read back by `restamp` for photos that carry no XMP record.
public struct Sidecar: Codable, Sendable {
    let stampcam: String
    let photo: String
    public let original: String
    /// The SHA-256 of the original's bytes (absent in sidecars of stampcam before 0.3).
    public let originalSHA256: String?
    let template: TemplateInfo
    let fields: FieldValues
    public let capture: String

    struct TemplateInfo: Codable, Sendable {
        let id: String
        let name: String
        let version: Int
    }

    struct FieldValues: Codable, Sendable {
        let time: String?
        let timeSource: String?
        let user, project, location, note, camera, filename: String?
        let latitude, longitude, altitude: Double?
        let sequence: Int?
        let extra: [String: String]
    }

    /// `capture` describes how the photo was taken; `version` is stampcam's.
    public init(photo: String, original: String, originalSHA256: String? = nil, template: Template, fields: Fields,
                capture: String, version: String) {
        stampcam = version
        self.photo = PhotoName.lastComponent(photo)
        self.original = PhotoName.lastComponent(original)
        self.originalSHA256 = originalSHA256
        self.template = TemplateInfo(id: template.id, name: template.name, version: template.version)
        self.fields = FieldValues(time: fields.time?.iso8601, timeSource: fields.timeSource, user: fields.user,
                                  project: fields.project, location: fields.location, note: fields.note,
                                  camera: fields.camera, filename: fields.filename, latitude: fields.latitude, longitude: fields.longitude,
                                  altitude: fields.altitude, sequence: fields.sequence, extra: fields.extra)
        self.capture = capture
    }

    /// The style's id.
    public var templateID: String { template.id }

    /// The values the photo was stamped with.
    public var stampedFields: Fields {
        Fields(time: fields.time.flatMap(Timestamp.init(iso8601:)), timeSource: fields.timeSource, user: fields.user,
               project: fields.project, location: fields.location, note: fields.note, latitude: fields.latitude,
               longitude: fields.longitude, altitude: fields.altitude, camera: fields.camera, filename: fields.filename,
               sequence: fields.sequence, extra: fields.extra)
    }

    public func json() throws -> [UInt8] {
        try JSONOutput.encoded(self, pretty: true) + [0x0A]
    }

    /// Reads a sidecar's JSON; nil when it is not one.
    public init?(json: [UInt8]) {
        guard let decoded = try? JSONDecoder().decode(Sidecar.self, from: Data(json)) else { return nil }
        self = decoded
    }
}
