/// A JPEG's C2PA manifest store: the JUMBF superbox its APP11 segments carry (JPEG XT boxes: "JP",
/// an instance number En, sequence numbers Z from 1, each later segment repeating the box header),
/// and where those segments lie in the file.
struct JPEGManifestStore: Sendable {
    /// The reassembled superbox.
    let bytes: [UInt8]
    /// The segments' bytes in the file (marker to end), merged where they touch: the only bytes a
    /// hard binding may leave out.
    let ranges: [Range<Int>]


    private struct Segment {
        let sequence: UInt32
        let file: Range<Int>
        /// The box bytes this segment carries (header included).
        let box: Range<Int>
    }

    /// The store in `file`; nil when the file carries none (or is not a JPEG). A file that ends
    /// inside its store's segments throws a `Malformed` that says it was cut.
    static func find(in file: [UInt8]) throws(Malformed) -> JPEGManifestStore? {
        var instances: [UInt16: [Segment]] = [:]
        let (segments, cut) = appSegments(file)
        for segment in segments {
            let payload = segment.payload
            // CI "JP", En, Z, then at least a box header.
            guard payload.count >= 16, file[payload.lowerBound] == 0x4a, file[payload.lowerBound + 1] == 0x50 else { continue }
            let instance = UInt16(file[payload.lowerBound + 2]) << 8 | UInt16(file[payload.lowerBound + 3])
            let sequence = JUMBFSuperbox.bigEndian32(file, payload.lowerBound + 4)
            instances[instance, default: []].append(Segment(sequence: sequence, file: segment.file, box: payload.lowerBound + 8..<payload.upperBound))
        }
        let cutInStore = cut.map { $0 == .boxSegment || ($0 == .elsewhere && !instances.isEmpty) } ?? false
        var stores: [JPEGManifestStore] = []
        for (_, segments) in instances.sorted(by: { $0.key < $1.key }) {
            let store: JPEGManifestStore
            do { store = try reassemble(segments, in: file) } catch {
                throw cutInStore ? Malformed("the file ends inside its manifest store", cut: true) : error
            }
            if store.isC2PA { stores.append(store) }
        }
        guard stores.count <= 1 else { throw Malformed("the file holds \(stores.count) manifest stores") }
        if stores.isEmpty, cut == .boxSegment { throw Malformed("the file ends inside its manifest store", cut: true) }
        return stores.first
    }

    /// Whether the superbox's description says C2PA manifest store (type `c2pa`, label "c2pa").
    private var isC2PA: Bool {
        guard bytes.count >= 8 + 8 + 17, JUMBFSuperbox.bigEndian32(bytes, 12) == 0x6a75_6d64 else { return false }  // "jumd"
        return Array(bytes[16..<32]) == JUMBFBox.manifestStoreUUID
    }

    private static func reassemble(_ unordered: [Segment], in file: [UInt8]) throws(Malformed) -> JPEGManifestStore {
        let segments = unordered.sorted { $0.sequence < $1.sequence }
        for (index, segment) in segments.enumerated() where segment.sequence != index + 1 {
            throw Malformed("APP11 segments out of sequence (segment \(segment.sequence) where \(index + 1) belongs)")
        }
        let first = segments[0].box
        let declared = Int(JUMBFSuperbox.bigEndian32(file, first.lowerBound))
        // A large box (size 1) repeats its 8-byte length too.
        let headerSize = declared == 1 ? 16 : 8
        guard first.count >= headerSize else { throw Malformed("the first APP11 segment is cut short") }
        let header = Array(file[first.lowerBound..<first.lowerBound + headerSize])
        var bytes = Array(file[first])
        for segment in segments.dropFirst() {
            guard segment.box.count >= headerSize, Array(file[segment.box.lowerBound..<segment.box.lowerBound + headerSize]) == header else {
                throw Malformed("APP11 segment \(segment.sequence) does not repeat the box header")
            }
            bytes += file[segment.box.lowerBound + headerSize..<segment.box.upperBound]
        }
        let size = declared == 1 ? Int(clamping: header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) : declared
        guard size == bytes.count else {
            throw Malformed("the manifest store's box claims \(size) bytes; its segments hold \(bytes.count)")
        }
        var ranges: [Range<Int>] = []
        for range in segments.map(\.file).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = ranges.last, last.upperBound == range.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
            } else {
                ranges.append(range)
            }
        }
        return JPEGManifestStore(bytes: bytes, ranges: ranges)
    }

    /// Where a file ends before its first scan: inside an APP11 segment of JPEG XT boxes, or elsewhere.
    enum Cut { case boxSegment, elsewhere }

    /// The APP11 segments before the first scan: each one's bytes in the file and its payload; and
    /// whether the file ends before the scan begins.
    private static func appSegments(_ file: [UInt8]) -> (segments: [(file: Range<Int>, payload: Range<Int>)], cut: Cut?) {
        guard file.count >= 4, file[0] == 0xff, file[1] == 0xd8 else { return ([], nil) }
        var found: [(file: Range<Int>, payload: Range<Int>)] = []
        var index = 2
        while index + 4 <= file.count, file[index] == 0xff {
            let marker = file[index + 1]
            if marker == 0xff { index += 1; continue }  // fill byte
            if marker == 0x01 || (0xd0...0xd7).contains(marker) { index += 2; continue }  // no length
            if marker == 0xda || marker == 0xd9 { return (found, nil) }  // the scan (or the end) begins
            let length = Int(file[index + 2]) << 8 | Int(file[index + 3])
            guard length >= 2 else { return (found, nil) }
            guard index + 2 + length <= file.count else {
                // "JP" right after the length, as far as the file goes.
                let boxes = marker == 0xeb && (index + 4 >= file.count || file[index + 4] == 0x4a)
                return (found, boxes ? .boxSegment : .elsewhere)
            }
            if marker == 0xeb { found.append((index..<index + 2 + length, index + 4..<index + 2 + length)) }
            index += 2 + length
        }
        return (found, index + 4 > file.count ? .elsewhere : nil)
    }
}
