/// The key and certificate an HTTPS server (`serve --tls`) answers with, as PEM text.
public struct TLSCredentials: Sendable, Equatable {
    public var keyPEM: String
    public var certificatePEM: String
    /// The certificate's SHA-256 fingerprint (`AB:CD:…`), for a person to compare with the browser's.
    public var fingerprint: String
    /// The authority that issued the certificate, for phones to install (`/ca`); nil for one
    /// without (an organisation's certificate that phones trust already).
    public var authority: Authority?

    /// A certificate authority as a phone installs it.
    public struct Authority: Sendable, Equatable {
        public var pem: String
        public var der: [UInt8]
        /// SHA-256 of `der`, `AB:CD:…`.
        public var fingerprint: String

        public init(pem: String, der: [UInt8], fingerprint: String) {
            self.pem = pem
            self.der = der
            self.fingerprint = fingerprint
        }
    }

    public init(keyPEM: String, certificatePEM: String, fingerprint: String, authority: Authority? = nil) {
        self.keyPEM = keyPEM
        self.certificatePEM = certificatePEM
        self.fingerprint = fingerprint
        self.authority = authority
    }
}
