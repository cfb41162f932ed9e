import Platform
import Provenance

/// How the commands that write photos sign them: with this installation's identity (made on
/// first use), an organisation's key and chain, or not at all (`--no-sign`, or `"no-sign": true`
/// or `"sign": false` in the config).
enum SigningOptions {
    static let noSign = Flag("no-sign", help: "write photos without signed C2PA credentials (the summary says so)")

    /// For `shoot`, `serve`, `apply` and `restamp`.
    static let writing: [any OptionDeclaration] = [KeysCommand.signingKey, KeysCommand.signingCert, noSign]

    /// The signer for the photos, checked before any is written; nil with `--no-sign`. A key or
    /// chain that is missing, unreadable or does not match is an error, never an unsigned photo.
    /// The installation's own identity is opened, or made, only when the first photo is signed.
    static func signer(_ options: ParsedOptions, context: Context, command: String) throws -> ManifestSigner? {
        let key = try options.value(KeysCommand.signingKey), chain = try options.value(KeysCommand.signingCert)
        if options.flag(noSign) {
            if key != nil || chain != nil {
                throw UsageError.badValue(option: "--no-sign", value: "with --signing-key or --signing-cert", expected: "given together (choose one)")
            }
            return nil
        }
        let now = WallClock.now().secondsSinceEpoch
        switch (key, chain) {
        case (let key?, let chain?):
            return ManifestSigner(identity: try SigningIdentity(keyFile: key, chainFile: chain, now: now))
        case (nil, nil):
            // Opened (or made) when the first photo is signed: a run that writes nothing makes no keys.
            let folder = InstallationKeys.folder(environment: context.environment), console = context.console
            return ManifestSigner { () throws(ProvenanceError) in
                let keys = try InstallationKeys.openOrCreate(folder: folder, host: HostName.current ?? "localhost", now: now)
                if keys.created { console.err("stampcam: made a new signing identity in \(PathEncoding.display(keys.folder))") }
                return keys.identity
            }
        case (nil, _?):
            throw UsageError.missing("--signing-key FILE with --signing-cert", command: command)
        case (_?, nil):
            throw UsageError.missing("--signing-cert CHAIN.pem with --signing-key", command: command)
        }
    }

    /// The line a run that signed nothing ends with.
    static let unsignedNote = "stampcam: note: the photos are not signed (--no-sign): they carry no C2PA credentials"
}
