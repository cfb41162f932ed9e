extension InPlaceJPEG {
    /// Lends the picture's own bytes of the file it was read from, in order, to `body`: every
    /// segment before the first scan except the metadata (APP0–APP15, COM) — the frame header,
    /// quantisation and Huffman tables, restart interval — then every byte from the first scan's
    /// SOS marker to the end. What they hash is the unstamped picture without decoding it; its
    /// metadata can change without changing it.
    public func withPictureBytes(_ body: (UnsafeRawBufferPointer) -> Void) {
        let bytes = transcoder.compressed
        for span in Self.pictureSpans(bytes) { body(UnsafeRawBufferPointer(rebasing: bytes[span])) }
    }

    /// Where the picture's bytes are (see `withPictureBytes`). Damaged structure (which libjpeg has
    /// refused already at `init`) counts as picture from where it starts: more is hashed, never less.
    static func pictureSpans(_ bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        func keep(_ span: Range<Int>) {
            if let last = spans.last, last.upperBound == span.lowerBound {
                spans[spans.count - 1] = last.lowerBound..<span.upperBound
            } else if !span.isEmpty {
                spans.append(span)
            }
        }
        guard bytes.count >= 2 else { return [0..<bytes.count] }
        keep(0..<2)  // SOI
        var start = 2
        while start < bytes.count {
            var at = start
            guard bytes[at] == 0xFF else { break }
            while at < bytes.count && bytes[at] == 0xFF { at += 1 }  // fill bytes
            guard at < bytes.count else { break }
            let marker = bytes[at]
            if marker == 0xDA { break }  // the first scan: the rest is picture
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {  // no length
                keep(start..<at + 1)
                start = at + 1
                continue
            }
            guard at + 2 < bytes.count else { break }
            let end = at + 1 + (Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]))
            guard end <= bytes.count else { break }
            let metadata = (0xE0...0xEF).contains(marker) || marker == 0xFE
            if !metadata { keep(start..<end) }
            start = end
        }
        keep(start..<bytes.count)
        return spans
    }
}
