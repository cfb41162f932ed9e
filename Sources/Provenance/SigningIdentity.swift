import Platform

/// A private key and the certificate chain that names it: what signs a photo's credentials.
public struct SigningIdentity: Sendable {
    let key: CryptoKey
    let chain: [X509Certificate]

    /// The signer's certificate first, then each issuer up towards the root (COSE's x5chain).
    public var certificateChainDER: [[UInt8]] { chain.map(\.der) }
    /// The chain, described.
    public var certificates: [CertificateInfo] { chain.map(CertificateInfo.init) }
    /// The last certificate of the chain in PEM form: what a verifier trusts (the CA's, for this
    /// installation's own identity).
    public var topCertificatePEM: String { chain.last?.pem.map { String(decoding: $0, as: UTF8.self) } ?? "" }
    /// The signer's certificate.
    public var certificate: CertificateInfo { CertificateInfo(chain[0]) }

    /// Checks that `key` is P-256, matches the first certificate and that each certificate is
    /// issued by the next. The paths name the files in errors.
    init(key: CryptoKey, chain: [X509Certificate], keyPath: String, chainPath: String) throws(ProvenanceError) {
        guard key.isP256 else { throw .unsupportedKey(path: keyPath, algorithm: key.algorithm) }
        guard let signer = chain.first else { throw .badPEM(path: chainPath, expected: "a certificate") }
        guard signer.matches(key) else { throw .keyMismatch(key: keyPath, certificate: chainPath) }
        for (index, pair) in zip(chain, chain.dropFirst()).enumerated() where !pair.0.isIssued(by: pair.1) {
            throw .wrongOrder(path: chainPath, index: index, subject: pair.0.subject)
        }
        self.key = key
        self.chain = chain
    }

    /// Throws unless every certificate of the chain is valid at `now` (seconds since the epoch):
    /// what signing asks; `chainPath` names the file in errors.
    public func checkValid(at now: Int, chainPath: String) throws(ProvenanceError) {
        for certificate in chain {
            switch certificate.validity(at: now) {
            case ..<0: throw .notYetValid(path: chainPath, subject: certificate.subject, notBefore: certificate.notBefore)
            case 1...: throw .expired(path: chainPath, subject: certificate.subject, notAfter: certificate.notAfter)
            default: break
            }
        }
    }

    /// An organisation's own key and chain, from PEM files, checked at `now` (seconds since the epoch).
    public init(keyFile: String, chainFile: String, now: Int) throws(ProvenanceError) {
        let key = try Self.readKey(keyFile)
        guard let chain = X509Certificate.read(pem: try Self.read(chainFile)), !chain.isEmpty else {
            throw .badPEM(path: chainFile, expected: "a certificate chain")
        }
        try self.init(key: key, chain: chain, keyPath: keyFile, chainPath: chainFile)
        try checkValid(at: now, chainPath: chainFile)
    }

    /// ES256: ECDSA P-256 over the SHA-256 of `bytes`, as r‖s (64 bytes), the form COSE uses.
    public func sign(_ bytes: [UInt8]) throws(ProvenanceError) -> [UInt8] {
        guard let raw = CryptoKey.raw(fromDER: try signDER(bytes), size: 32) else { throw .crypto("convert a signature") }
        return raw
    }

    /// The same signature DER-encoded, as X.509 and `openssl dgst -verify` use it.
    public func signDER(_ bytes: [UInt8]) throws(ProvenanceError) -> [UInt8] {
        guard let der = key.signDER(bytes) else { throw .crypto("sign with the key") }
        return der
    }

    /// The private key in a PEM file, refused (as OpenSSH refuses one) when the file is ours and
    /// others may read or write it.
    static func readKey(_ path: String) throws(ProvenanceError) -> CryptoKey {
        guard let key = CryptoKey.read(pem: try read(path)) else { throw .badPEM(path: path, expected: "a private key") }
        if let status = FileStatus(path: FilePath(path)), status.isMine, status.mode & 0o077 != 0 {
            throw .unsafeKey(path: path, mode: status.mode)
        }
        return key
    }

    /// A regular file's bytes (a FIFO or device is refused without blocking); keys are small.
    static func read(_ path: String) throws(ProvenanceError) -> [UInt8] {
        do {
            return try FileSystem.read(FilePath(path), limit: 1 << 20)
        } catch {
            switch error {
            case .system(let errno): throw .cannotRead(path: path, reason: errno.description)
            case .notRegular(let kind): throw .cannotRead(path: path, reason: "it is \(kind), not a regular file")
            case .tooLarge: throw .badPEM(path: path, expected: "a key or certificate (it is over 1 MB)")
            }
        }
    }
}
