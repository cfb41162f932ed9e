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
    /// The claim's parent ingredient is a photo with credentials of its own, kept in the store.
    public internal(set) var parentHasCredentials = false
    /// Whether the stamp's verification code matches its fields and picture hash; nil when not checked.
    public internal(set) var codeMatches: Bool?

    /// The signature's RFC 3161 time-stamp, when it carries one: a trusted one that holds is the
    /// time the certificates must have been valid at.
    public internal(set) var timeStamp: TimeStamp?

    public var signer: CertificateInfo? { certificates.first }

    /// Records a failed check: the outcome becomes the worse of the two, the problem the first
    /// found at that level.
    mutating func fail(_ outcome: Outcome, _ problem: String) {
        if outcome > self.outcome {
            self.outcome = outcome
            self.problem = problem
        }
    }
}
