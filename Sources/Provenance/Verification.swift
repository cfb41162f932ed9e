import Values

/// What `ManifestReader` found in one photo's Content Credentials: each check's result, who
/// signed, what stampcam's assertion says, and the one outcome that sums them up.
public struct Verification: Sendable {
    /// The outcomes, mildest first: a photo's outcome is the worst that applies, and so is a batch's.
    public enum Outcome: Int, Sendable, Comparable, CaseIterable {
        /// Signed, unchanged, by a certificate in its validity period (at the time-stamp's time,
        /// when a trusted one holds) that chains to a trusted CA.
        case valid
        /// All holds, but the signer's chain reaches no trusted CA.
        case untrusted
        /// A certificate of the chain is outside its validity period.
        case expired
        /// The photo carries no C2PA manifest: nothing to verify.
        case noCredentials
        /// The picture (or a signed assertion) differs from what was signed.
        case changed
        /// The signature does not hold, or the credentials are damaged.
        case invalid

        public static func < (a: Outcome, b: Outcome) -> Bool { a.rawValue < b.rawValue }

        /// The name in JSON: `valid`, `untrusted`, `expired`, `noCredentials`, `changed`, `invalid`.
        public var name: String { String(describing: self) }
    }

    public internal(set) var outcome: Outcome = .noCredentials
    /// Why the outcome is not `valid`, in one line of facts (nil when valid).
    public internal(set) var problem: String?
    public internal(set) var hasCredentials = false
    public internal(set) var signatureValid = false
    /// The hard binding (`c2pa.hash.data`) holds: the file is unchanged since signing, its manifest aside.
    public internal(set) var bindingHolds = false
    public internal(set) var trusted = false
    /// The signer's certificate first, then its issuers (COSE x5chain).
    public internal(set) var certificates: [CertificateInfo] = []
    /// The claim's generator ("stampcam/0.9" …).
    public internal(set) var generator: String?
    /// stampcam's own assertion (`org.stampcam.stamp`), when the claim signs it.
    public internal(set) var stamp: JSONValue?
    /// The code a catalog logged for the file's path (`verify --code`), when it was compared with the file's own.
    public internal(set) var loggedCode: String?
    /// Whether the file is the photo logged with `loggedCode`: its signed assertion records that code.
    public var isLoggedPhoto: Bool? { loggedCode.map { $0 == code && signatureValid && bindingHolds } }
    /// Why the credentials could not be read; nil when they could (or there are none).
    public internal(set) var damage: Damage?
    /// The manifest of the photo's parent ingredient, kept in its store, as checked; nil when the
    /// photo names no parent with credentials.
    public internal(set) var parent: Parent?
    /// When the photo was signed, as its credentials say; nil when they do not.
    public internal(set) var signedAt: SigningTime?
    /// Whether the stamp's verification code matches its fields and picture hash; nil when not checked.
    public internal(set) var codeMatches: Bool?

    /// The signature's RFC 3161 time-stamp, when it carries one: a trusted one that holds is the
    /// time the certificates must have been valid at.
    public internal(set) var timeStamp: TimeStamp?

    public var signer: CertificateInfo? { certificates.first }
    /// The organisation the signer's certificate names (its O=): who signed, in a client's words.
    public var organization: String? { signer?.organization }
    /// The claim's parent ingredient is a photo with credentials of its own, kept in the store.
    public var parentHasCredentials: Bool { parent != nil }
    /// The verification code stampcam's assertion records (`K7MN-4XRT-9P`).
    public var code: String? { stampText("code") }
    /// The photo log's head the assertion records: the newest row hash when the photo was made.
    public var chainHead: String? { stampText("chainHead") }

    /// Why credentials cannot be read.
    public enum Damage: Sendable, Equatable {
        /// The file ends inside its manifest store: it was cut short after it was signed.
        case cut
        /// A segment, box, CBOR structure or signature header is not what C2PA says.
        case malformed(String)
    }

    /// A parent ingredient's kept manifest: who made and signed it, and whether it holds.
    public struct Parent: Sendable, Equatable {
        /// The ingredient's title (the parent's file name).
        public internal(set) var title: String?
        public internal(set) var generator: String?
        public internal(set) var signer: CertificateInfo?
        /// The worst outcome of its checks (`valid` when it holds; trust is not judged, its hard
        /// binding cannot be: the parent's file is not here), and what is wrong.
        public internal(set) var outcome: Outcome = .valid
        public internal(set) var problem: String?
        public var holds: Bool { outcome == .valid }
    }

    /// When a photo was signed and who says so.
    public struct SigningTime: Sendable, Equatable {
        public var time: Timestamp
        /// A time-stamp authority's signed time (RFC 3161); false: the signer's own clock, as its
        /// assertion records it.
        public var attested: Bool

        public init(time: Timestamp, attested: Bool) {
            self.time = time
            self.attested = attested
        }
    }

    private func stampText(_ key: String) -> String? {
        guard case .object(let members)? = stamp, case .string(let text)? = members[key], !text.isEmpty else { return nil }
        return text
    }

    /// Records a failed check: the outcome becomes the worse of the two, the problem the first
    /// found at that level.
    mutating func fail(_ outcome: Outcome, _ problem: String) {
        if outcome > self.outcome {
            self.outcome = outcome
            self.problem = problem
        }
    }
}
