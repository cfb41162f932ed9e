import Capture
import Library
import Provenance
import Templates

extension PhotoWriter {
    /// `write` for a camera's still. The camera's own JPEG frame, kept at its size, is stamped in
    /// place (see `prepare(inPlace:)`): every block outside the stamp's rows is the frame's, bit
    /// for bit. Any other still is stamped on its pixels and encoded. The built-in test pattern's
    /// is signed as made by a program, never as a capture.
    public func write(_ still: CapturedStill, style: Template, fields: Fields, to claim: NameClaim,
                      original: Original? = nil) throws(WriteError) -> WrittenPhoto {
        let origin: Credentials.Origin = still.metadata.device == Cameras.testDevice ? .generated : .captured
        if let inPlace = InPlaceChoice.open(still, maxSize: settings.maxSize, style: style) {
            return try write(inPlace: inPlace, style: style, fields: fields, to: claim, original: original, origin: origin)
        }
        return try write(still.photo, style: style, fields: fields, to: claim, original: original, origin: origin)
    }
}
