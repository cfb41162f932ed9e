import Platform
import Provenance

/// How the commands that write photos sign them: with this installation's identity (made on
/// first use, its certificate renewed when it nears its end), an organisation's key and chain, or
/// not at all (`--no-sign`, or `"no-sign": true` or `"sign": false` in the config); with a
/// time-stamp from the authority `--tsa` names.
enum SigningOptions {
    static let noSign = Flag("no-sign", help: marked("option", "write photos without signed C2PA credentials (the summary says so)"))
    static let tsa = Option<String>("tsa", value: "URL",
                                    help: marked("option", "time-stamp each signature at this RFC 3161 authority (http://…), so photos stay valid after the certificate ends")) {
        (text) throws(UsageError) in
        if let problem = TimeStampAuthority.problem(with: text) { throw .badValue(option: "--tsa", value: text, expected: problem) }
        return text
    }

    static let verifyURL = Option<String>("verify-url", value: "URL",
                                          help: marked("option", "the organisation's check page (https://…/verify): a style's QR code links to it with the photo's code")) {
        (text) throws(UsageError) in
        let lower = text.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), text.count <= 200,
              !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value > 0x7e }) else {
            throw .badValue(option: "--verify-url", value: text, expected: "the check page's address, like https://check.example.com/verify (at most 200 characters)")
        }
        return text
    }

    /// For `shoot`, `serve`, `apply` and `restamp`.
    static let writing: [any OptionDeclaration] = [KeysCommand.signingKey, KeysCommand.signingCert, noSign, tsa, verifyURL]

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
        let timeStamps = try options.value(tsa).map { TimeStampAuthority(url: $0) }
        switch (key, chain) {
        case (let key?, let chain?):
            return ManifestSigner(identity: try SigningIdentity(keyFile: key, chainFile: chain, now: now), timeStamps: timeStamps)
        case (nil, nil):
            // Opened (or made, or renewed) when the first photo is signed: a run that writes nothing makes no keys.
            let folder = InstallationKeys.folder(environment: context.environment), console = context.console
            return ManifestSigner(timeStamps: timeStamps) { () throws(ProvenanceError) in
                let keys = try installationKeys(folder: folder, console: console, now: now)
                try keys.checkValid(at: now)
                return keys.identity
            }
        case (nil, _?):
            throw UsageError.missing("--signing-key FILE with --signing-cert", command: command)
        case (_?, nil):
            throw UsageError.missing("--signing-cert CHAIN.pem with --signing-key", command: command)
        }
    }

    /// This installation's identity, made on first use; its device certificate renewed when it has
    /// fewer than `InstallationKeys.renewalDays` left and the CA key is here, else a warning that
    /// says where to renew it. Each says so on stderr.
    static func installationKeys(folder: String, console: Console, now: Int) throws(ProvenanceError) -> InstallationKeys {
        var keys = try InstallationKeys.openOrCreate(folder: folder, host: HostName.current ?? "localhost", now: now)
        let folder = PathEncoding.display(keys.folder)
        if keys.created { console.err("stampcam: made a new signing identity in \(folder)") }
        guard keys.needsRenewal(at: now) else { return keys }
        let ended = keys.device.expires <= now
        if keys.hasAuthorityKey {
            let before = keys.device.notAfter
            keys = try keys.renewed(now: now)
            console.err("stampcam: note: renewed the signing certificate in \(folder), which \(ended ? "ended" : "would end") on \(before); "
                + "the new one is valid until \(keys.device.notAfter)")
        } else if !ended {
            console.err("stampcam: warning: the signing certificate in \(folder) ends on \(keys.device.notAfter) and the CA key is kept "
                + "elsewhere: where it is, run: stampcam keys renew --ca-key PATH/ca.key")
        }
        return keys
    }

    /// The line a run that signed nothing ends with.
    static let unsignedNote = "stampcam: note: the photos are not signed (--no-sign): they carry no C2PA credentials"
}
