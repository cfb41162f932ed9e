@testable import Provenance

/// A C2PA manifest made by hand for the reader's tests, so each part can be bent: JUMBF boxes,
/// CBOR with integers of four bytes (so a hard binding's size does not change with its values), a COSE_Sign1
/// signature with a test identity, APP11 segments of any size around a tiny JPEG.
struct TestManifest {
    /// CBOR as tests write it.
    indirect enum CBOR: Sendable {
        case uint(Int), negative(Int), bytes([UInt8]), text(String), array([CBOR]), map([(String, CBOR)]), intMap([(Int, CBOR)])
        case tag(Int, CBOR), null

        var encoded: [UInt8] {
            switch self {
            case .uint(let value): return [26] + be32(value)  // fixed size, see above
            case .negative(let value): return Self.head(1, -1 - value)
            case .bytes(let bytes): return Self.head(2, bytes.count) + bytes
            case .text(let text): return Self.head(3, text.utf8.count) + Array(text.utf8)
            case .array(let items): return Self.head(4, items.count) + items.flatMap(\.encoded)
            case .map(let pairs): return Self.head(5, pairs.count) + pairs.flatMap { CBOR.text($0.0).encoded + $0.1.encoded }
            case .intMap(let pairs): return Self.head(5, pairs.count) + pairs.flatMap { ($0.0 < 0 ? CBOR.negative($0.0) : .uint($0.0)).encoded + $0.1.encoded }
            case .tag(let tag, let item): return Self.head(6, tag) + item.encoded
            case .null: return [0xf6]
            }
        }

        /// The shortest head, as COSE's Sig_structure must be written.
        static func head(_ major: UInt8, _ value: Int) -> [UInt8] {
            switch value {
            case ..<24: return [major << 5 | UInt8(value)]
            case ..<256: return [major << 5 | 24, UInt8(value)]
            case ..<65536: return [major << 5 | 25, UInt8(value >> 8), UInt8(value & 0xff)]
            default: return [major << 5 | 26] + be32(value)
            }
        }
    }

    static func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(8 + payload.count) + Array(type.utf8) + payload }

    static func superbox(_ type: String, label: String, _ contents: [[UInt8]]) -> [UInt8] {
        let uuid = Array(type.utf8) + [0x00, 0x11, 0x00, 0x10, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71]
        return box("jumb", box("jumd", uuid + [0x03] + Array(label.utf8) + [0]) + contents.joined())
    }

    static func assertion(_ label: String, _ value: CBOR) -> [UInt8] { superbox("cbor", label: label, [box("cbor", value.encoded)]) }

    /// What a test may change.
    var identity: SigningIdentity
    var stamp: CBOR = .map([("version", .uint(1)), ("user", .text("Li Wei")),
                            ("time", .map([("value", .text("2026-05-04T10:20:30+08:00")), ("source", .text("GPS"))]))])
    /// Exclusions of the hard binding; nil: the manifest's own segments.
    var exclusions: [(start: Int, length: Int)]?
    /// Exclusions of picture bytes (from the picture's start) after the manifest's own.
    var alsoExcluding: [(start: Int, length: Int)] = []
    var segmentSize = 65_000
    var picture: [UInt8] = [0xff, 0xda, 0x00, 0x08, 1, 1, 0, 0, 63, 0] + Array(repeating: 0x5a, count: 300) + [0xff, 0xd9]
    /// Applied to the manifest store's bytes before they are cut into segments.
    var bend: ([UInt8]) -> [UInt8] = { $0 }

    /// The JPEG: SOI, the APP11 segments, the picture. Its hard binding's hash is honest: the
    /// SHA-256 of the file without what its exclusions name, whatever they name.
    func jpeg() throws -> [UInt8] {
        // Sizes do not depend on the values, so a first pass gives the segments' length, a second the file.
        let picturePart = alsoExcluding.map { (start: $0.start, length: $0.length) }
        let ownLength = try segments(excluding: [(2, 0)] + picturePart).count
        let exclusions = self.exclusions ?? [(2, ownLength)] + picturePart.map { (start: 2 + ownLength + $0.start, length: $0.length) }
        let draft = [0xff, 0xd8] + (try segments(excluding: exclusions)) + picture
        let hash = Digest.sha256(draft, ranges: Self.kept(draft.count, excluding: exclusions))!
        return [0xff, 0xd8] + (try segments(excluding: exclusions, hash: hash)) + picture
    }

    /// The ranges of `count` bytes that no exclusion covers (exclusions clamped to the bytes).
    static func kept(_ count: Int, excluding exclusions: [(start: Int, length: Int)]) -> [Range<Int>] {
        var covered = [Bool](repeating: false, count: count)
        for exclusion in exclusions where exclusion.start < count {
            for index in exclusion.start..<min(count, exclusion.start + exclusion.length) { covered[index] = true }
        }
        var ranges: [Range<Int>] = []
        var start: Int?
        for index in 0...count {
            let free = index < count && !covered[index]
            if free, start == nil { start = index }
            if !free, let begun = start {
                ranges.append(begun..<index)
                start = nil
            }
        }
        return ranges
    }

    private func segments(excluding exclusions: [(start: Int, length: Int)], hash: [UInt8] = Array(repeating: 0, count: 32)) throws -> [UInt8] {
        let binding = Self.assertion("c2pa.hash.data", .map([
            ("exclusions", .array(exclusions.map { .map([("start", .uint($0.start)), ("length", .uint($0.length))]) })),
            ("name", .text("jumbf manifest")), ("alg", .text("sha256")), ("hash", .bytes(hash))]))
        let stampBox = Self.assertion(ManifestReader.stampLabel, stamp)
        let manifestLabel = "urn:uuid:00000000-0000-4000-8000-000000000001"
        let references: [CBOR] = [("c2pa.hash.data", binding), (ManifestReader.stampLabel, stampBox)].map { label, box in
            .map([("url", .text("self#jumbf=c2pa.assertions/" + label)),
                  ("hash", .bytes(Digest.sha256(box, ranges: [8..<box.count])!))])
        }
        let claim = CBOR.map([("claim_generator", .text("stampcam/test")), ("signature", .text("self#jumbf=c2pa.signature")),
                              ("assertions", .array(references)), ("alg", .text("sha256"))]).encoded
        let protected = CBOR.intMap([(1, .negative(-7)), (33, .array(identity.certificateChainDER.map(CBOR.bytes)))]).encoded
        let toSign = CBOR.array([.text("Signature1"), .bytes(protected), .bytes([]), .bytes(claim)]).encoded
        let signature = try identity.sign(toSign)
        let sign1 = CBOR.tag(18, .array([.bytes(protected), .intMap([]), .null, .bytes(signature)])).encoded
        let manifest = Self.superbox("c2ma", label: manifestLabel, [
            Self.superbox("c2as", label: "c2pa.assertions", [binding, stampBox]),
            Self.superbox("c2cl", label: "c2pa.claim", [Self.box("cbor", claim)]),
            Self.superbox("c2cs", label: "c2pa.signature", [Self.box("cbor", sign1)]),
        ])
        return Self.app11(bend(Self.superbox("c2pa", label: "c2pa", [manifest])), size: segmentSize)
    }

    /// `store` in APP11 segments, each the box header and at most `size` bytes of what follows it.
    static func app11(_ store: [UInt8], size: Int, instance: UInt16 = 1) -> [UInt8] {
        let header = Array(store.prefix(8))
        var out: [UInt8] = []
        var start = 8
        var sequence = 1
        while start < store.count {
            let take = min(size, store.count - start)
            let data = header + store[start..<start + take]
            out += [0xff, 0xeb] + [UInt8((10 + data.count) >> 8), UInt8((10 + data.count) & 0xff)]
                + [0x4a, 0x50, UInt8(instance >> 8), UInt8(instance & 0xff)] + be32(sequence) + data
            start += take
            sequence += 1
        }
        return out
    }
}
