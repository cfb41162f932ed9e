import Platform
import Values

/// This installation's own signing identity: a small CA and a device certificate under it, made on
/// first use in `$XDG_DATA_HOME/stampcam/keys` (ca.pem, ca.key, device.pem, device.key).
public struct InstallationKeys: Sendable {
    public let folder: String
    /// The device key with the chain device certificate → CA.
    public let identity: SigningIdentity
    public var authority: CertificateInfo { identity.certificates[1] }
    /// Whether this call made the identity.
    public let created: Bool

    static let authorityDays = 3650
    static let deviceDays = 730

    /// `$XDG_DATA_HOME/stampcam/keys` when it is absolute (the XDG rule), else `~/.local/share/stampcam/keys`.
    public static func folder(environment: [String: String]) -> String {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ProcessEnvironment.home(environment) + "/.local/share"
        return data + "/stampcam/keys"
    }

    /// The identity in `folder`, made first when there is none. The whole folder appears at once
    /// (made aside and renamed), so processes starting together agree on one identity. `host`
    /// goes into the certificates' names; `now` (seconds since the epoch) starts their validity.
    public static func openOrCreate(folder: String, host: String, now: Int) throws(ProvenanceError) -> InstallationKeys {
        if let existing = try open(folder: folder, now: now) { return existing }
        let staging = try make(beside: folder, host: host, now: now)
        do {
            try FileSystem.rename(FilePath(staging), to: FilePath(folder))
            guard let made = try open(folder: folder, now: now) else { throw ProvenanceError.crypto("find the keys just made") }
            return InstallationKeys(folder: made.folder, identity: made.identity, created: true)
        } catch let error as Errno {
            discard(staging)
            // Another stampcam made it first: use theirs.
            guard error == .notEmpty || error == .exists, let theirs = try open(folder: folder, now: now) else {
                throw .cannotCreate(path: folder, reason: error.description)
            }
            return theirs
        } catch {
            discard(staging)
            throw error as? ProvenanceError ?? .crypto("keep the keys")
        }
    }

    /// The identity in `folder`; nil when there is no folder.
    static func open(folder: String, now: Int) throws(ProvenanceError) -> InstallationKeys? {
        guard let status = FileStatus(linkAt: FilePath(folder)) else { return nil }
        guard status.kind != .symbolicLink else {
            throw .unsafeFolder(path: folder, reason: "it is a symbolic link; keys must live in a folder of their own (move the link away)")
        }
        guard status.isFolder else { throw .unsafeFolder(path: folder, reason: "it is not a folder (move it away)") }
        let path = { (name: String) in folder + "/" + name }
        guard let ca = X509Certificate.read(pem: try SigningIdentity.read(path("ca.pem")))?.first else { throw .badPEM(path: path("ca.pem"), expected: "a certificate") }
        guard let device = X509Certificate.read(pem: try SigningIdentity.read(path("device.pem")))?.first else {
            throw .badPEM(path: path("device.pem"), expected: "a certificate")
        }
        guard let caKey = CryptoKey.read(pem: try SigningIdentity.read(path("ca.key"))) else {
            throw .badPEM(path: path("ca.key"), expected: "a private key")
        }
        guard ca.matches(caKey) else { throw .keyMismatch(key: path("ca.key"), certificate: path("ca.pem")) }
        guard let deviceKey = CryptoKey.read(pem: try SigningIdentity.read(path("device.key"))) else {
            throw .badPEM(path: path("device.key"), expected: "a private key")
        }
        let identity = try SigningIdentity(key: deviceKey, chain: [device, ca], keyPath: path("device.key"),
                                           chainPath: path("device.pem"), now: now)
        return InstallationKeys(folder: folder, identity: identity, created: false)
    }

    /// A new identity in a new 0700 folder beside `folder`; returns that folder's path.
    private static func make(beside folder: String, host: String, now: Int) throws(ProvenanceError) -> String {
        let parent = FilePath(folder).removingLastComponent
        do {
            try FileSystem.makeFolders(parent)
        } catch {
            throw .cannotCreate(path: parent.string, reason: error.description)
        }
        guard let caKey = CryptoKey.makeP256(), let deviceKey = CryptoKey.makeP256(), let id = CryptoKey.random(4) else {
            throw .crypto("make a P-256 key")
        }
        // A short random id tells apart identities made on hosts of the same name.
        let name = "\(host) \(Hex.lowercase(id))"
        guard let ca = X509Certificate.make(.init(commonName: "stampcam CA " + name, days: authorityDays, isAuthority: true),
                                            key: caKey, issuer: nil, now: now),
              let device = X509Certificate.make(.init(commonName: "stampcam device " + name, days: deviceDays, isAuthority: false),
                                                key: deviceKey, issuer: (ca, caKey), now: now),
              let caPEM = ca.pem, let caKeyPEM = caKey.pem, let devicePEM = device.pem, let deviceKeyPEM = deviceKey.pem
        else { throw .crypto("make the certificates") }
        let staging: FilePath
        do {
            staging = try FileSystem.makeTemporaryFolder(parent.appending(".keys-"))
        } catch {
            throw .cannotCreate(path: parent.string, reason: error.description)
        }
        let files: [(String, [UInt8], UInt32)] = [("ca.pem", caPEM, 0o644), ("ca.key", caKeyPEM, 0o600),
                                                  ("device.pem", devicePEM, 0o644), ("device.key", deviceKeyPEM, 0o600)]
        for (file, bytes, mode) in files {
            do {
                try FileSystem.createNew(staging.appending(FilePath(file)), bytes, mode: mode)
            } catch {
                discard(staging.string)
                throw .cannotCreate(path: staging.string + "/" + file, reason: error.description)
            }
        }
        return staging.string
    }

    /// Removes a staging folder this process made.
    private static func discard(_ staging: String) {
        for file in ["ca.pem", "ca.key", "device.pem", "device.key"] { FileSystem.remove(FilePath(staging + "/" + file)) }
        FileSystem.removeFolder(FilePath(staging))
    }
}
