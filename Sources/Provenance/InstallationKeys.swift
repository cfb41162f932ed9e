import Platform
import Values

/// This installation's own signing identity: a small CA and a device certificate under it, made on
/// first use (or by `keys init --org NAME`, in an organisation's name) in
/// `$XDG_DATA_HOME/stampcam/keys` (ca.pem, ca.key, device.pem, device.key). Signing needs only the
/// device key: the CA key may be moved offline, and is needed again only to renew the device
/// certificate, which is renewed with the same device key before it ends.
public struct InstallationKeys: Sendable {
    public let folder: String
    /// The device key with the chain device certificate → CA.
    public let identity: SigningIdentity
    /// The CA's key; nil when it is kept elsewhere.
    private let authorityKey: CryptoKey?
    public var hasAuthorityKey: Bool { authorityKey != nil }
    public var authority: CertificateInfo { identity.certificates[1] }
    public var device: CertificateInfo { identity.certificate }
    /// The organisation the certificates are in the name of (O=).
    public var organization: String { identity.chain[0].organization ?? Self.defaultOrganization }
    /// Whether this call made the identity.
    public let created: Bool

    static let authorityDays = 3650
    static let deviceDays = 730
    /// The device certificate is renewed when it has fewer days left than this.
    public static let renewalDays = 60
    /// The organisation of an identity made without `--org`.
    public static let defaultOrganization = "stampcam"
    static let files = ["ca.pem", "ca.key", "device.pem", "device.key"]

    /// `$XDG_DATA_HOME/stampcam/keys` when it is absolute (the XDG rule), else `~/.local/share/stampcam/keys`.
    public static func folder(environment: [String: String]) -> String {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ProcessEnvironment.home(environment) + "/.local/share"
        return data + "/stampcam/keys"
    }

    /// Why `name` cannot be an organisation's name in a certificate (X.520: 1 to 64 characters), or nil.
    public static func problem(organization name: String) -> String? {
        let trimmed = name.trimmingWhitespace
        guard !trimmed.isEmpty, trimmed.count <= 64, trimmed == name else { return "1 to 64 characters, without spaces around them" }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return "text without control characters" }
        return nil
    }

    /// The identity in `folder`, made first when there is none. The whole folder appears at once
    /// (made aside and renamed), so processes starting together agree on one identity. `host`
    /// and `organization` go into the certificates' names; `now` (seconds since the epoch) starts
    /// their validity.
    public static func openOrCreate(folder: String, host: String, organization: String = defaultOrganization,
                                    now: Int) throws(ProvenanceError) -> InstallationKeys {
        if let existing = try open(folder: folder) { return existing }
        let staging = try make(beside: folder, host: host, organization: organization, now: now)
        do {
            try FileSystem.rename(FilePath(staging), to: FilePath(folder))
            guard let made = try open(folder: folder) else { throw ProvenanceError.crypto("find the keys just made") }
            return InstallationKeys(folder: made.folder, identity: made.identity, authorityKey: made.authorityKey, created: true)
        } catch let error as Errno {
            discard(staging)
            // Another stampcam made it first: use theirs.
            guard error == .notEmpty || error == .exists, let theirs = try open(folder: folder) else {
                throw .cannotCreate(path: folder, reason: error.description)
            }
            return theirs
        } catch {
            discard(staging)
            throw error as? ProvenanceError ?? .crypto("keep the keys")
        }
    }

    /// A new identity in `folder` (`keys init`); throws when there is one already.
    public static func create(folder: String, host: String, organization: String, now: Int) throws(ProvenanceError) -> InstallationKeys {
        if FileStatus(linkAt: FilePath(folder)) != nil { throw .identityExists(folder: folder) }
        let keys = try openOrCreate(folder: folder, host: host, organization: organization, now: now)
        guard keys.created else { throw .identityExists(folder: folder) }
        return keys
    }

    /// The CA certificate in `folder` in PEM form, read alone (whatever the keys' state); nil when
    /// there is no folder.
    public static func authorityPEM(folder: String) throws(ProvenanceError) -> String? {
        guard FileStatus(linkAt: FilePath(folder)) != nil else { return nil }
        let path = folder + "/ca.pem"
        guard let ca = X509Certificate.read(pem: try SigningIdentity.read(path))?.first, let pem = ca.pem else {
            throw .badPEM(path: path, expected: "a certificate")
        }
        return String(decoding: pem, as: UTF8.self)
    }

    /// The identity in `folder`; nil when there is no folder. Validity is not checked: the keys
    /// are shown, exported and renewed whatever their dates.
    public static func open(folder: String) throws(ProvenanceError) -> InstallationKeys? {
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
        // The CA key may be kept offline: only its absence is allowed, not a damaged or unsafe one.
        var caKey: CryptoKey?
        if FileStatus(linkAt: FilePath(path("ca.key"))) != nil {
            caKey = try SigningIdentity.readKey(path("ca.key"))
            guard ca.matches(caKey!) else { throw .keyMismatch(key: path("ca.key"), certificate: path("ca.pem")) }
        }
        let identity = try SigningIdentity(key: try SigningIdentity.readKey(path("device.key")), chain: [device, ca],
                                           keyPath: path("device.key"), chainPath: path("device.pem"))
        return InstallationKeys(folder: folder, identity: identity, authorityKey: caKey, created: false)
    }

    /// Throws unless both certificates are valid at `now`: what signing asks. An ended device
    /// certificate whose CA key is kept offline is said so, with the command that renews it.
    public func checkValid(at now: Int) throws(ProvenanceError) {
        if identity.chain[0].validity(at: now) > 0, !hasAuthorityKey, identity.chain[1].validity(at: now) == 0 {
            throw .authorityKeyMissing(folder: folder, notAfter: device.notAfter)
        }
        try identity.checkValid(at: now, chainPath: folder + "/device.pem")
    }

    /// Whether the device certificate ends within `renewalDays` of `now` (or has ended).
    public func needsRenewal(at now: Int) -> Bool { device.expires - now < Self.renewalDays * 86400 }

    /// The identity with a new device certificate for the same device key, valid from `now` for
    /// two years (never past the CA's end), signed by the CA key in the folder or at
    /// `authorityKeyFile`; `device.pem` is replaced at once (renamed into place).
    public func renewed(now: Int, authorityKeyFile: String? = nil) throws(ProvenanceError) -> InstallationKeys {
        let ca = identity.chain[1], old = identity.chain[0]
        let caKeyPath = authorityKeyFile ?? folder + "/ca.key"
        guard let caKey = try authorityKeyFile.map({ (file: String) throws(ProvenanceError) in try SigningIdentity.readKey(file) }) ?? authorityKey else {
            throw .authorityKeyMissing(folder: folder, notAfter: device.notAfter)
        }
        guard ca.matches(caKey) else { throw .keyMismatch(key: caKeyPath, certificate: folder + "/ca.pem") }
        guard ca.validity(at: now) == 0, ca.notAfterSeconds - now > 86400 else {
            throw .expired(path: folder + "/ca.pem", subject: ca.subject, notAfter: ca.notAfter)
        }
        let profile = X509Certificate.Profile(commonName: old.commonName ?? "stampcam device", organization: organization,
                                              days: Self.deviceDays, notAfter: ca.notAfterSeconds, isAuthority: false)
        guard let certificate = X509Certificate.make(profile, key: identity.key, issuer: (ca, caKey), now: now),
              let pem = certificate.pem, let id = CryptoKey.random(6) else { throw .crypto("make the renewed certificate") }
        let target = FilePath(folder + "/device.pem"), staging = FilePath(folder + "/.device.pem-" + Hex.lowercase(id))
        do {
            try FileSystem.createNew(staging, pem, mode: 0o644)
            try FileSystem.rename(staging, to: target)
        } catch {
            FileSystem.remove(staging)
            throw .cannotCreate(path: target.string, reason: error.description)
        }
        let identity = try SigningIdentity(key: identity.key, chain: [certificate, ca], keyPath: folder + "/device.key",
                                           chainPath: target.string)
        return InstallationKeys(folder: folder, identity: identity, authorityKey: authorityKey, created: false)
    }

    /// A new identity in a new 0700 folder beside `folder`; returns that folder's path.
    private static func make(beside folder: String, host: String, organization: String, now: Int) throws(ProvenanceError) -> String {
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
        guard let ca = X509Certificate.make(.init(commonName: "\(organization) CA " + name, organization: organization,
                                                  days: authorityDays, isAuthority: true),
                                            key: caKey, issuer: nil, now: now),
              let device = X509Certificate.make(.init(commonName: "stampcam device " + name, organization: organization,
                                                      days: deviceDays, isAuthority: false),
                                                key: deviceKey, issuer: (ca, caKey), now: now),
              let caPEM = ca.pem, let caKeyPEM = caKey.pem, let devicePEM = device.pem, let deviceKeyPEM = deviceKey.pem
        else { throw .crypto("make the certificates") }
        let staging: FilePath
        do {
            staging = try FileSystem.makeTemporaryFolder(parent.appending(".keys-"))
        } catch {
            throw .cannotCreate(path: parent.string, reason: error.description)
        }
        let contents: [(String, [UInt8], UInt32)] = [("ca.pem", caPEM, 0o644), ("ca.key", caKeyPEM, 0o600),
                                                     ("device.pem", devicePEM, 0o644), ("device.key", deviceKeyPEM, 0o600)]
        for (file, bytes, mode) in contents {
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
        for file in files { FileSystem.remove(FilePath(staging + "/" + file)) }
        FileSystem.removeFolder(FilePath(staging))
    }
}
