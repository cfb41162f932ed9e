/// The key and certificate an HTTPS server (`serve --tls`) answers with, as PEM text.
public struct TLSCredentials: Sendable, Equatable {
    public var keyPEM: String
    public var certificatePEM: String
    /// The certificate's SHA-256 fingerprint (`AB:CD:…`), for a person to compare with the browser's.
    public var fingerprint: String

    public init(keyPEM: String, certificatePEM: String, fingerprint: String) {
        self.keyPEM = keyPEM
        self.certificatePEM = certificatePEM
        self.fingerprint = fingerprint
    }
}
