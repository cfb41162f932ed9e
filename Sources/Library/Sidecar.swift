import Foundation
import Templates

/// What a kept original needs to be stamped again later: the style and the values used.
public struct Sidecar: Encodable, Sendable {
    let stampcam: String
    let photo: String
    let original: String
    let template: TemplateInfo
    let fields: FieldValues
    let capture: String

    struct TemplateInfo: Encodable, Sendable {
        let id: String
        let name: String
        let version: Int
    }

    struct FieldValues: Encodable, Sendable {
        let time: String?
        let timeSource: String?
        let user, project, location, note, camera, filename: String?
        let latitude, longitude, altitude: Double?
        let sequence: Int?
        let extra: [String: String]
    }

    /// `capture` describes how the photo was taken; `version` is stampcam's.
    public init(photo: String, original: String, template: Template, fields: Fields, capture: String, version: String) {
        stampcam = version
        self.photo = PhotoName.lastComponent(photo)
        self.original = PhotoName.lastComponent(original)
        self.template = TemplateInfo(id: template.id, name: template.name, version: template.version)
        self.fields = FieldValues(time: fields.time?.iso8601, timeSource: fields.timeSource, user: fields.user,
                                  project: fields.project, location: fields.location, note: fields.note,
                                  camera: fields.camera, filename: fields.filename, latitude: fields.latitude, longitude: fields.longitude,
                                  altitude: fields.altitude, sequence: fields.sequence, extra: fields.extra)
        self.capture = capture
    }

    public func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0A]
    }
}
