/// Why a photo's credentials cannot be read: a box, segment or CBOR structure that is not what the
/// C2PA specification says, or a file that ends inside them. The reader reports it as damaged (or
/// cut) credentials, never as valid.
struct Malformed: Error {
    let reason: String
    /// The file ends inside its manifest store.
    let cut: Bool
    /// The store holds no box a C2PA reader takes for a manifest (one without a claim of the claim
    /// type): the reference reader answers that there is no manifest, and so does stampcam.
    let noManifest: Bool

    init(_ reason: String, cut: Bool = false, noManifest: Bool = false) {
        self.reason = reason
        self.cut = cut
        self.noManifest = noManifest
    }
}
