/// Why a photo's credentials cannot be read: a box, segment or CBOR structure that is not what the
/// C2PA specification says. The reader reports it as damaged credentials, never as valid.
struct Malformed: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
