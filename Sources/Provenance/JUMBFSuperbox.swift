/// A JUMBF superbox (ISO/IEC 19566-5) as read from a file (JUMBFBox builds them): its description
/// box's type and label, the superboxes inside it and its plain content boxes. Ranges index the
/// bytes it was read from.
struct JUMBFSuperbox: Sendable {
    /// The description's 16-byte type; C2PA's start with four letters (`c2pa`, `c2ma`, `cbor` …).
    let type: [UInt8]
    let label: String?
    /// Everything after the superbox's own header (the description and every content box): what a
    /// C2PA hashed URI covers.
    let contents: Range<Int>
    let children: [JUMBFSuperbox]
    /// Content boxes that are not superboxes: their four-letter type and payload.
    let data: [(type: String, payload: Range<Int>)]

    /// How deep superboxes may nest: a manifest store needs four levels.
    static let maxDepth = 8


    /// The superbox that fills `bytes`.
    static func read(_ bytes: [UInt8]) throws(Malformed) -> JUMBFSuperbox {
        let (box, end) = try superbox(in: bytes, at: 0, limit: bytes.count, depth: 0)
        guard end == bytes.count else { throw Malformed("bytes after the manifest store's box") }
        return box
    }

    /// The child superbox labelled `label`.
    func child(_ label: String) -> JUMBFSuperbox? { children.first { $0.label == label } }

    /// The payload of the first content box of `type`.
    func payload(_ type: String) -> Range<Int>? { data.first { $0.type == type }?.payload }

    /// The description's type as its four letters.
    var typeName: String { String(decoding: type.prefix(4), as: UTF8.self) }

    /// Whether this is a manifest: a standard one (`c2ma`) or an update manifest (`c2um`), by their whole UUIDs.
    var isManifest: Bool { type == JUMBFBox.manifestUUID || type == JUMBFBox.updateManifestUUID }

    /// The child superbox labelled `label` whose type is the whole UUID `uuid`; nil when none is,
    /// and a `Malformed` when the box of that label has another type.
    func child(_ label: String, type uuid: [UInt8]) throws(Malformed) -> JUMBFSuperbox? {
        guard let box = child(label) else { return nil }
        guard box.type == uuid else { throw Malformed("the box '\(Self.printable(label))' is not of the type its label says") }
        return box
    }

    /// One box header at `start`: its type, where its payload starts and where it ends.
    private static func header(in bytes: [UInt8], at start: Int, limit: Int) throws(Malformed) -> (type: String, payload: Int, end: Int) {
        guard limit - start >= 8 else { throw Malformed("a box header cut short at byte \(start)") }
        let size = Int(bigEndian32(bytes, start))
        let type = String(decoding: bytes[start + 4..<start + 8], as: UTF8.self)
        switch size {
        // ISO BMFF lets a last box run to the end of the file with size 0; C2PA's JUMBF (as c2pa-rs reads it) does not.
        case 0: throw Malformed("a box at byte \(start) gives no length")
        case 1:
            guard limit - start >= 16 else { throw Malformed("a box header cut short at byte \(start)") }
            let large = bytes[start + 8..<start + 16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard large >= 16, large <= UInt64(limit - start) else { throw Malformed("a box at byte \(start) claims \(large) bytes") }
            return (type, start + 16, start + Int(large))
        default:
            guard size >= 8, size <= limit - start else { throw Malformed("a box at byte \(start) claims \(size) bytes") }
            return (type, start + 8, start + size)
        }
    }

    private static func superbox(in bytes: [UInt8], at start: Int, limit: Int, depth: Int) throws(Malformed) -> (JUMBFSuperbox, Int) {
        guard depth <= maxDepth else { throw Malformed("boxes nested more than \(maxDepth) deep") }
        let (type, payload, end) = try header(in: bytes, at: start, limit: limit)
        guard type == "jumb" else { throw Malformed("a '\(printable(type))' box where a JUMBF superbox belongs") }
        let description = try header(in: bytes, at: payload, limit: end)
        guard description.type == "jumd", description.end - description.payload >= 17 else {
            throw Malformed("a superbox without its description box")
        }
        let uuid = Array(bytes[description.payload..<description.payload + 16])
        let toggles = bytes[description.payload + 16]
        var label: String?
        if toggles & 0x02 != 0 {
            let text = description.payload + 17
            guard let nul = bytes[text..<description.end].firstIndex(of: 0) else { throw Malformed("a label without its end") }
            label = String(decoding: bytes[text..<nul], as: UTF8.self)
        }
        var children: [JUMBFSuperbox] = []
        var data: [(type: String, payload: Range<Int>)] = []
        var next = description.end
        while next < end {
            let inner = try header(in: bytes, at: next, limit: end)
            if inner.type == "jumb" {
                let (child, childEnd) = try superbox(in: bytes, at: next, limit: end, depth: depth + 1)
                children.append(child)
                next = childEnd
            } else {
                data.append((inner.type, inner.payload..<inner.end))
                next = inner.end
            }
        }
        return (JUMBFSuperbox(type: uuid, label: label, contents: payload..<end, children: children, data: data), end)
    }

    static func bigEndian32(_ bytes: [UInt8], _ start: Int) -> UInt32 {
        bytes[start..<start + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// A box type as a message may show it.
    static func printable(_ type: String) -> String {
        String(type.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7f ? Character($0) : "?" })
    }
}
