import Platform

/// Why a signing identity could not be made, read or used. Says which file and what is wrong; the
/// front end adds which option to change.
public enum ProvenanceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file cannot be opened or read (missing, no permission, not a regular file).
    case cannotRead(path: String, reason: String)
    /// The file holds no usable PEM key or certificate: empty, cut short, something else.
    case badPEM(path: String, expected: String)
    /// The key is not one stampcam signs with.
    case unsupportedKey(path: String, algorithm: String)
    /// The private key does not belong to the certificate's public key.
    case keyMismatch(key: String, certificate: String)
    /// Certificate `index` (0 is the signer's) of the chain in `path` is not issued by the next one.
    case wrongOrder(path: String, index: Int, subject: String)
    /// A certificate is outside its validity period.
    case expired(path: String, subject: String, notAfter: String)
    case notYetValid(path: String, subject: String, notBefore: String)
    /// The keys folder cannot hold keys safely (a link, not a folder, other files in the way).
    case unsafeFolder(path: String, reason: String)
    /// A key or certificate could not be written.
    case cannotCreate(path: String, reason: String)
    /// A private key others may read or change: refused, as OpenSSH refuses one.
    case unsafeKey(path: String, mode: UInt32)
    /// This installation's CA key is not in its folder (kept offline), and renewing needs it.
    case authorityKeyMissing(folder: String, notAfter: String)
    /// `keys init` where an identity exists already.
    case identityExists(folder: String)
    /// OpenSSL failed to make or use a key.
    case crypto(String)
    /// A photo's bytes have no place for a manifest (not the JPEG stampcam encoded).
    case cannotEmbed(String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason):
            return "\(PathEncoding.display(path)): cannot read: \(reason)"
        case .badPEM(let path, let expected):
            return "\(PathEncoding.display(path)): not \(expected) in PEM form (empty, cut short or another kind of file)"
        case .unsupportedKey(let path, let algorithm):
            return "\(PathEncoding.display(path)): a \(algorithm) key; stampcam signs with EC P-256 (prime256v1) keys only (ES256)"
        case .keyMismatch(let key, let certificate):
            return "\(PathEncoding.display(key)): this key does not belong to the first certificate in \(PathEncoding.display(certificate))"
        case .wrongOrder(let path, let index, let subject):
            return "\(PathEncoding.display(path)): certificate \(index + 1) (\(subject)) is not issued by the one after it; "
                + "the chain must go from the signer's certificate up towards the root"
        case .expired(let path, let subject, let notAfter):
            return "\(PathEncoding.display(path)): the certificate \(subject) expired on \(notAfter)"
        case .notYetValid(let path, let subject, let notBefore):
            return "\(PathEncoding.display(path)): the certificate \(subject) is not valid before \(notBefore)"
        case .unsafeFolder(let path, let reason):
            return "\(PathEncoding.display(path)): cannot keep keys here: \(reason)"
        case .cannotCreate(let path, let reason):
            return "\(PathEncoding.display(path)): cannot create: \(reason)"
        case .unsafeKey(let path, let mode):
            let shown = PathEncoding.display(path)
            return "\(shown): this private key can be read by others (mode \(String(mode, radix: 8))); stampcam will not use it, "
                + "as OpenSSH would not: chmod 600 \(Self.shellWord(shown))"
        case .authorityKeyMissing(let folder, let notAfter):
            let shown = PathEncoding.display(folder)
            return "the signing certificate in \(shown) must be renewed (it expires on \(notAfter)), and renewing needs the CA key, "
                + "which is not in \(shown) (kept offline): where the CA key is, run: stampcam keys renew --ca-key PATH/ca.key"
        case .identityExists(let folder):
            return "\(PathEncoding.display(folder)): a signing identity is here already; to make a new one, move this folder away "
                + "first (photos signed with it stay verifiable with its CA, 'stampcam keys export-ca' before you move it)"
        case .crypto(let what):
            return "OpenSSL could not \(what)"
        case .cannotEmbed(let reason):
            return "cannot put the signed credentials into the photo: \(reason)"
        }
    }

    /// `text` as one shell word, quoted only when it needs to be.
    static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || "0123456789/._-+:@".unicodeScalars.contains($0)) }
        return plain ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
