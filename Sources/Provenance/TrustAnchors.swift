/// The CA certificates a verifier trusts: a photo's signer is trusted when its chain reaches one.
public struct TrustAnchors: Sendable {
    let certificates: [X509Certificate]

    /// No anchors: nothing is trusted.
    public init() { certificates = [] }

    /// Every certificate in the PEM files.
    public init(files: [String]) throws(ProvenanceError) {
        var certificates: [X509Certificate] = []
        for file in files {
            guard let read = X509Certificate.read(pem: try SigningIdentity.read(file)), !read.isEmpty else {
                throw .badPEM(path: file, expected: "a CA certificate")
            }
            certificates += read
        }
        self.certificates = certificates
    }

    /// The top of `identity`'s chain: a server trusts the photos it signed itself (its own CA, or
    /// the organisation's root it was given).
    public init(signer identity: SigningIdentity) {
        certificates = X509Certificate.read(pem: Array(identity.topCertificatePEM.utf8)) ?? []
    }

    public var isEmpty: Bool { certificates.isEmpty }
}
