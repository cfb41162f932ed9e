/// The CA certificates a verifier trusts: a photo's signer is trusted when its chain reaches one; a
/// time-stamp when its authority's chain reaches one of these or of the time-stamp authorities' own.
public struct TrustAnchors: Sendable {
    let certificates: [X509Certificate]
    /// Anchors for time-stamp authorities only (`--tsa-trust`).
    let timeStampOnly: [X509Certificate]

    /// No anchors: nothing is trusted.
    public init() {
        certificates = []
        timeStampOnly = []
    }

    /// Every certificate in the PEM files: `files` for signers and time-stamps, `timeStampFiles`
    /// for time-stamp authorities only.
    public init(files: [String], timeStampFiles: [String] = [], adding identity: SigningIdentity? = nil) throws(ProvenanceError) {
        certificates = (identity?.chain.last.map { [$0] } ?? []) + (try Self.read(files))
        timeStampOnly = try Self.read(timeStampFiles)
    }

    /// The organisations the signer anchors name (O=), in order.
    public var organizations: [String] { certificates.compactMap(\.organization) }

    private static func read(_ files: [String]) throws(ProvenanceError) -> [X509Certificate] {
        var certificates: [X509Certificate] = []
        for file in files {
            guard let read = X509Certificate.read(pem: try SigningIdentity.read(file)), !read.isEmpty else {
                throw .badPEM(path: file, expected: "a CA certificate")
            }
            certificates += read
        }
        return certificates
    }

    /// The top of `identity`'s chain: a server trusts the photos it signed itself (its own CA, or
    /// the organisation's root it was given).
    public init(signer identity: SigningIdentity) {
        certificates = X509Certificate.read(pem: Array(identity.topCertificatePEM.utf8)) ?? []
        timeStampOnly = []
    }

    public var isEmpty: Bool { certificates.isEmpty }

    /// Who may vouch for a time-stamp's authority.
    var timeStampAuthorities: [X509Certificate] { certificates + timeStampOnly }
}
