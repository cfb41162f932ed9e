/// JUMBF boxes (ISO/IEC 19566-5) as C2PA uses them: a box is its size (LBox, 4 bytes, big-endian,
/// counting itself), its type (TBox, 4 characters) and its payload; a superbox (`jumb`) holds a
/// description box (`jumd`: the content type's UUID, toggles, a label) and then its content boxes.
public struct JUMBFBox: Equatable, Sendable {
    /// The four-character box type.
    public var type: String
    /// Everything after LBox and TBox.
    public var payload: [UInt8]

    public init(type: String, payload: [UInt8]) {
        self.type = type
        self.payload = payload
    }

    /// LBox, TBox and the payload.
    public var bytes: [UInt8] { BigEndian.bytes(UInt32(8 + payload.count)) + Array(type.utf8) + payload }

    /// A superbox of content type `uuid` and `label`, holding `children` after its description.
    public static func superbox(uuid: [UInt8], label: String, children: [JUMBFBox]) -> JUMBFBox {
        // Toggles: requestable (bit 0) and a label present (bit 1).
        let description = JUMBFBox(type: "jumd", payload: uuid + [0x03] + Array(label.utf8) + [0])
        return JUMBFBox(type: "jumb", payload: ([description] + children).flatMap(\.bytes))
    }

    /// A C2PA content type: four characters followed by the fixed ISO suffix.
    public static func c2paUUID(_ type: String) -> [UInt8] {
        Array(type.utf8) + [0x00, 0x11, 0x00, 0x10, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
    }

    public static let manifestStoreUUID = c2paUUID("c2pa")
    public static let manifestUUID = c2paUUID("c2ma")
    public static let updateManifestUUID = c2paUUID("c2um")
    public static let assertionStoreUUID = c2paUUID("c2as")
    public static let claimUUID = c2paUUID("c2cl")
    public static let signatureUUID = c2paUUID("c2cs")
    public static let cborUUID = c2paUUID("cbor")

    /// A superbox with one CBOR content box: how claims, signatures and CBOR assertions are stored.
    public static func cbor(uuid: [UInt8] = cborUUID, label: String, _ bytes: [UInt8]) -> JUMBFBox {
        superbox(uuid: uuid, label: label, children: [JUMBFBox(type: "cbor", payload: bytes)])
    }
}

enum BigEndian {
    static func bytes(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func bytes(_ value: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
}
