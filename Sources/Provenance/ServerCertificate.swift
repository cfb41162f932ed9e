import Platform
import Values

/// The key and certificate `serve --tls` answers with, made on first use and kept with the
/// installation's keys (`tls.key`, 0600, and `tls.pem`), issued by the installation's own CA
/// (`ca.pem`), which a phone installs once to trust the server (and so run the page offline).
/// Until then browsers warn: the fingerprints are what a person compares with the ones the
/// server prints.
public struct ServerCertificate: Sendable, Equatable {
    public let keyPEM: String
    public let certificatePEM: String
    /// SHA-256 of the certificate, `AB:CD:…`.
    public let fingerprint: String
    /// Whether this call made it.
    public let created: Bool
    /// The CA that issued it, for phones to install; nil for a certificate of an organisation's own.
    public var authority: Authority?

    /// A certificate authority: PEM, DER, and the SHA-256 fingerprint of the DER (`AB:CD:…`).
    public struct Authority: Sendable, Equatable {
        public let pem: String
        public let der: [UInt8]
        public let fingerprint: String
    }

    static let days = 825  // the longest validity browsers accept for a server certificate

    /// The certificate in `folder` (the keys folder), made there for `names` (`localhost`, this
    /// machine's name and addresses) when there is none.
    /// One made before the CA issued them (self-signed) is made again, issued by it.
    public static func openOrCreate(folder: String, names: [String], now: Int) throws(ProvenanceError) -> ServerCertificate {
        let keyPath = folder + "/tls.key", certificatePath = folder + "/tls.pem"
        let authority = try self.authority(folder: folder)
        var missing = !FileSystem.exists(FilePath(keyPath))
        if !missing, let authority,
           let existing = X509Certificate.read(pem: (try? SigningIdentity.read(certificatePath)) ?? [])?.first,
           !existing.isIssued(by: authority.certificate) {
            FileSystem.remove(FilePath(keyPath))
            missing = true
        }
        if missing { try make(keyPath: keyPath, certificatePath: certificatePath, names: names, now: now, issuer: authority) }
        var certificate = try read(keyPath: keyPath, certificatePath: certificatePath, created: missing)
        if let authority, let pem = authority.certificate.pem {
            certificate.authority = Authority(pem: String(decoding: pem, as: UTF8.self), der: authority.certificate.der,
                                              fingerprint: authority.certificate.fingerprint)
        }
        return certificate
    }

    /// The installation's CA in the keys folder, when it is there.
    private static func authority(folder: String) throws(ProvenanceError) -> (certificate: X509Certificate, key: CryptoKey)? {
        let certificatePath = folder + "/ca.pem", keyPath = folder + "/ca.key"
        guard FileSystem.exists(FilePath(certificatePath)), FileSystem.exists(FilePath(keyPath)) else { return nil }
        guard let certificate = X509Certificate.read(pem: try SigningIdentity.read(certificatePath))?.first else {
            throw .badPEM(path: certificatePath, expected: "a certificate")
        }
        guard let key = CryptoKey.read(pem: try SigningIdentity.read(keyPath)) else { throw .badPEM(path: keyPath, expected: "a private key") }
        return (certificate, key)
    }

    /// A key and certificate of an organisation's own (`--tls-cert`, `--tls-key`).
    public static func read(keyPath: String, certificatePath: String) throws(ProvenanceError) -> ServerCertificate {
        try read(keyPath: keyPath, certificatePath: certificatePath, created: false)
    }

    private static func read(keyPath: String, certificatePath: String, created: Bool) throws(ProvenanceError) -> ServerCertificate {
        let key = try SigningIdentity.readKey(keyPath)  // refused when others can read it
        let keyBytes = try SigningIdentity.read(keyPath), certificateBytes = try SigningIdentity.read(certificatePath)
        guard let certificate = X509Certificate.read(pem: certificateBytes)?.first else {
            throw .badPEM(path: certificatePath, expected: "a certificate")
        }
        guard certificate.matches(key) else { throw .keyMismatch(key: keyPath, certificate: certificatePath) }
        return ServerCertificate(keyPEM: String(decoding: keyBytes, as: UTF8.self),
                                 certificatePEM: String(decoding: certificateBytes, as: UTF8.self),
                                 fingerprint: certificate.fingerprint, created: created)
    }

    private static func make(keyPath: String, certificatePath: String, names: [String], now: Int,
                             issuer: (certificate: X509Certificate, key: CryptoKey)?) throws(ProvenanceError) {
        let folder = FilePath(keyPath).removingLastComponent
        do { try FileSystem.makeFolders(folder, mode: 0o700) } catch { throw .cannotCreate(path: folder.string, reason: error.description) }
        let subjectNames = names.map { name in
            name.allSatisfy({ $0.isNumber || $0 == "." }) || name.contains(":") ? "IP:" + name : "DNS:" + name
        }
        guard let key = CryptoKey.makeP256(),
              let certificate = X509Certificate.make(.init(commonName: "stampcam " + (names.first ?? "server"), days: days,
                                                           isAuthority: false, serverNames: subjectNames),
                                                     key: key, issuer: issuer, now: now),
              let keyPEM = key.pem, let certificatePEM = certificate.pem
        else { throw .crypto("make the server certificate") }
        // The certificate first: a key without one is never read as a pair.
        do {
            _ = FileSystem.remove(FilePath(certificatePath))
            try FileSystem.createNew(FilePath(certificatePath), certificatePEM, mode: 0o644)
            try FileSystem.createNew(FilePath(keyPath), keyPEM, mode: 0o600)
        } catch let error where error == .exists {
            return  // another stampcam made it at the same time: theirs is read
        } catch {
            throw .cannotCreate(path: keyPath, reason: error.description)
        }
    }
}
