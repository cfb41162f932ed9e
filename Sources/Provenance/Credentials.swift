/// What a photo's C2PA manifest says besides its hard binding: who made it, how it came to be,
/// and assertions of the maker's own (stampcam's record of the stamp).
public struct Credentials: Sendable {
    /// How the pictured content came to be.
    public enum Origin: Sendable, Equatable {
        /// Taken by a camera just now: `c2pa.created` with IPTC's digital-capture source type.
        case captured
        /// Made by a program, never by a lens (the built-in test pattern): `c2pa.created` with
        /// IPTC's algorithmic-media source type.
        case generated
        /// Made from an existing photo (`c2pa.opened`), recorded as the parent ingredient.
        case opened(Ingredient)
    }

    /// The photo stamped, as the ingredient assertion names it.
    public struct Ingredient: Sendable, Equatable {
        /// Its file name.
        public var title: String
        /// SHA-256 of its bytes, lowercase hex.
        public var sha256: String
        public var format: String
        /// The C2PA manifests its file carries, kept in the new store (nil: it carries none, or
        /// they could not be kept).
        public var manifests: ParentManifests?

        public init(title: String, sha256: String, format: String = "image/jpeg", manifests: ParentManifests? = nil) {
            self.title = title
            self.sha256 = sha256
            self.format = format
            self.manifests = manifests
        }
    }

    /// The claim generator: "stampcam" and its version.
    public var generator: String
    public var version: String
    public var origin: Origin
    /// What was done after the capture or the opening (the stamp drawn on it), as the edit action's description.
    public var edit: String
    /// Assertions of the generator's own: label and CBOR content (`org.stampcam.stamp`).
    public var assertions: [(label: String, content: CBORValue)]

    public init(generator: String, version: String, origin: Origin, edit: String, assertions: [(label: String, content: CBORValue)]) {
        self.generator = generator
        self.version = version
        self.origin = origin
        self.edit = edit
        self.assertions = assertions
    }

    /// IPTC's term for a photo a camera took (C2PA's digital source types).
    public static let digitalCapture = "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"
    /// IPTC's term for a picture an algorithm made from no sampled data (a test pattern).
    public static let algorithmicMedia = "http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicMedia"
}
