/// What a certificate says, for people and for JSON.
public struct CertificateInfo: Equatable, Sendable, Encodable {
    /// RFC 2253 form: `CN=stampcam device host 1a2b3c4d,O=stampcam`.
    public let subject: String
    public let issuer: String
    /// SHA-256 of the DER certificate, `AB:CD:…` as `openssl x509 -fingerprint -sha256` writes it.
    public let fingerprint: String
    /// UTC, ISO 8601.
    public let notBefore: String
    public let notAfter: String
    /// The organisation the subject names (O=): who the signer says it is; nil when the name has none.
    public let organization: String?
    /// The end of the validity period, in seconds since the epoch.
    public let expires: Int

    init(subject: String, issuer: String, fingerprint: String, notBefore: String, notAfter: String, organization: String?,
         expires: Int = 0) {
        self.subject = subject
        self.issuer = issuer
        self.fingerprint = fingerprint
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.organization = organization
        self.expires = expires
    }

    init(_ certificate: X509Certificate) {
        organization = certificate.organization
        expires = certificate.notAfterSeconds
        subject = certificate.subject
        issuer = certificate.issuer
        fingerprint = certificate.fingerprint
        notBefore = certificate.notBefore
        notAfter = certificate.notAfter
    }
}
