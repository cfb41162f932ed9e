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

    public var isEmpty: Bool { certificates.isEmpty }
}
