import Catalog
import Platform
import Provenance
import Session
import Values

/// `stampcam verify PHOTO...`: checks each photo's Content Credentials offline and says what they
/// prove; `verify --code CODE` first finds the photos with that code in the catalog.
enum VerifyCommand: Command {
    static let spec = CommandSpec(
        name: "verify",
        usage: "verify PHOTO... [--trust CA.pem]... [--tsa-trust CA.pem]... [--json] | verify --code CODE [--catalog FILE]",
        summary: marked("command", "Check photos' Content Credentials (C2PA) offline: signed, unchanged since signing, by whom, trusted, and what the stamp says with each value's source."),
        options: [trust, tsaTrust, code, CatalogOptions.catalog, json])

    static let trust = Option.text("trust", value: "CA.pem",
                                   help: marked("option", "trust signers whose chain reaches this CA certificate (repeatable; 'stampcam keys export-ca' prints one)"))
    static let tsaTrust = Option.text("tsa-trust", value: "CA.pem",
                                      help: marked("option", "trust time-stamps whose authority's chain reaches this CA certificate (repeatable; --trust CAs count too)"))
    static let code = Option.text("code", value: "CODE",
                                  help: marked("option", "verify the photos the catalog logged with this verification code: each must carry it")).commandLineOnly()
    static let json = Flag("json", help: marked("option", "print one JSON line per photo instead of text"))

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let console = context.console
        var photos = options.positionals
        var logged: String?
        if let typed = try options.value(code) {
            guard photos.isEmpty else { throw UsageError.badValue(option: "--code", value: typed, expected: "given without PHOTO arguments") }
            let normalized = try CatalogOptions.verificationCode(typed)
            logged = normalized
            photos = try find(code: normalized, options: options, context: context)
            guard !photos.isEmpty else { throw Failure(L("no photo in the catalog has the code {1}", normalized), code: .noInput) }
        }
        guard !photos.isEmpty else { throw UsageError.missing("PHOTO (or --code CODE)", command: spec.name) }
        let anchors = try TrustAnchors(files: try options.values(trust), timeStampFiles: try options.values(tsaTrust))
        let now = WallClock.now().secondsSinceEpoch
        var worst = ExitCode.success
        for photo in photos {
            let exit: ExitCode
            do {
                var verification = try ManifestReader.verify(path: photo, trust: anchors, now: now)
                verification.checkStampedCode()
                if let logged { verification.checkLogged(code: logged) }
                if options.flag(json) {
                    console.out(try JSONOutput.line(Line(path: photo, verification)))
                } else {
                    for line in describe(verification, path: photo) { console.out(line) }
                }
                exit = exitCode(verification.outcome)
                if let problem = verification.problem {
                    console.err("stampcam: \(PathEncoding.display(photo)): \(headline(verification.outcome)): \(problem)"
                        + advice(verification.outcome, trustGiven: !anchors.isEmpty))
                }
            } catch let error as ProvenanceError {
                let failure = Failure(provenance: error)
                console.err("stampcam: " + failure.message)
                // Scripts get a line for every photo they asked about.
                if options.flag(json) { console.out(try JSONOutput.line(Unreadable(path: PathEncoding.display(photo), problem: failure.message))) }
                exit = failure.code
            }
            if rank(exit) > rank(worst) { worst = exit }
        }
        return worst
    }

    /// The exit code of each outcome (README's table).
    static func exitCode(_ outcome: Verification.Outcome) -> ExitCode {
        switch outcome {
        case .valid: return .success
        case .untrusted: return .notTrusted
        case .expired: return .certificateExpired
        case .noCredentials: return .noCredentials
        case .changed: return .changedSinceSigning
        case .invalid: return .signatureInvalid
        }
    }

    /// How bad an exit is, for the batch's worst: a photo that could not be read at all is worse than
    /// any verdict on one that could.
    private static func rank(_ code: ExitCode) -> Int {
        if let outcome = Verification.Outcome.allCases.first(where: { exitCode($0) == code }) { return outcome.rawValue }
        return Verification.Outcome.allCases.count
    }

    /// The outcome in a few words, in the user's language (`--json` has `outcome`'s own name).
    private static func headline(_ outcome: Verification.Outcome) -> String {
        switch outcome {
        // TRANSLATORS: a photo's verdict: its signature holds and its signer is trusted.
        case .valid: return Lp("verdict", "valid")
        case .untrusted: return L("signer not trusted")
        case .expired: return L("certificate expired")
        case .noCredentials: return L("no credentials")
        case .changed: return L("changed since signing")
        case .invalid: return L("signature invalid")
        }
    }

    private static func advice(_ outcome: Verification.Outcome, trustGiven: Bool) -> String {
        switch outcome {
        case .untrusted where trustGiven: return "; " + L("its chain reaches none of the CA certificates given with --trust")
        case .untrusted: return "; " + L("if you trust its CA, give the CA certificate with --trust CA.pem")
        case .noCredentials: return "; " + L("it proves nothing about where or when it was taken")
        default: return ""
        }
    }

    /// The photos the catalog logged with `code`, each line saying where one is.
    private static func find(code: String, options: ParsedOptions, context: Context) throws -> [String] {
        let path = try CatalogOptions.path(options, context: context)
        guard let catalog = try CatalogOptions.openForReading(path) else {
            throw Failure(L("no catalog at {1} to find the code {2} in", PathEncoding.display(path), code), code: .noInput)
        }
        let photos = try catalog.photos(code: code).map(\.path)
        for photo in photos { context.console.err("stampcam: " + L("code {1}: {2}", code, PathEncoding.display(photo))) }
        return photos
    }

    /// The text report of one photo: the verdict in one plain sentence, then the checks, the
    /// signer, the parent, and the stamp's assertion as it is.
    static func describe(_ verification: Verification, path: String) -> [String] {
        let head = [PathEncoding.display(path), "  " + VerdictSentence.text(verification), ""]
        let rows = details(verification)
        let labels = rows.map(\.label).column(least: 13)
        var lines = head + zip(labels, rows).map { "  " + $0 + $1.value }
        if let stamp = verification.stamp, verification.hasCredentials, verification.damage == nil {
            // TRANSLATORS: heading of the stamp's assertion (its fields below it, as they are).
            lines.append("  " + Lp("verify", "stamp"))
            lines += tree(stamp, indent: "    ")
        }
        return lines
    }

    /// The report's rows, label and value, each in the user's language.
    private static func details(_ verification: Verification) -> [(label: String, value: String)] {
        var rows: [(label: String, value: String)] = []
        let row = { (label: String, value: String) in rows.append((label, value)) }
        // TRANSLATORS: the labels of verify's report ("credentials", "signature" …) are one or two words each.
        let credentials = Lp("verify", "credentials")
        guard verification.hasCredentials else {
            row(credentials, L("none"))
            return rows
        }
        switch verification.damage {
        case .cut?: row(credentials, L("cut short: the file ends inside them"))
        case .malformed(let reason)?: row(credentials, L("damaged: {1}", reason))
        case nil: row(credentials, verification.generator.map { L("yes, made by {1}", PathEncoding.display($0)) } ?? L("yes"))
        }
        row(Lp("verify", "outcome"), headline(verification.outcome))
        if verification.damage != nil { return rows }
        row(Lp("verify", "signature"), verification.signatureValid ? Lp("signature", "valid") : Lp("signature", "invalid"))
        row(Lp("verify", "unchanged"), verification.bindingHolds ? L("yes, the file is as it was signed") : L("no"))
        if let signer = verification.signer {
            row(Lp("verify", "signer"), PathEncoding.display(signer.subject))
            if let organization = signer.organization { row(Lp("verify", "organisation"), PathEncoding.display(organization)) }
            row("SHA-256", signer.fingerprint)
            // TRANSLATORS: label of a certificate's period of validity ("2026-01-01 to 2027-01-01").
            row(Lp("verify", "valid"), L("{1} to {2}", signer.notBefore, signer.notAfter))
        }
        for issuer in verification.certificates.dropFirst() { row(Lp("verify", "issuer"), PathEncoding.display(issuer.subject)) }
        row(Lp("verify", "trusted"), verification.trusted ? L("yes") : L("no"))
        if let stamp = verification.timeStamp { row(Lp("verify", "time-stamp"), timeStampWords(stamp)) }
        if let signed = verification.signedAt {
            row(Lp("verify", "signed"), signed.attested ? L("{1} (time-stamped)", signed.time.iso8601) : L("{1} (the signer's clock)", signed.time.iso8601))
        }
        if let parent = verification.parent {
            let name = parent.title.map(PathEncoding.display)
            let state = parent.holds ? L("credentials of its own, kept and intact") : L("its credentials do not hold: {1}", parent.problem ?? "")
            // TRANSLATORS: {1} is the parent photo's title, {2} what its credentials are.
            row(Lp("verify", "parent"), name.map { L("{1}, {2}", $0, state) } ?? state)
        }
        if let code = verification.code {
            // A code is only vouched for by a file that is as it was signed, and is the photo asked for.
            let unchanged = verification.signatureValid && verification.bindingHolds
            let state = !unchanged ? L("not checked: the file is not as it was signed")
                : verification.isLoggedPhoto == false ? L("this file's own, not the code logged for it")
                : verification.codeMatches == true ? L("matches the fields and the picture hash")
                : verification.codeMatches == false ? L("does not match the fields and the picture hash") : L("recorded")
            row(Lp("verify", "code"), L("{1}, {2}", PathEncoding.display(code), state))
        }
        if let logged = verification.loggedCode, verification.isLoggedPhoto == false {
            row(Lp("verify", "logged code"), L("{1}, which this file does not carry", logged))
        }
        return rows
    }

    /// A time-stamp, for the text report: when and by whom, or why it is not used.
    static func timeStampWords(_ stamp: TimeStamp) -> String {
        let when = stamp.time.map { Timestamp(secondsSinceEpoch: $0, utcOffsetMinutes: 0).iso8601 } ?? L("an unreadable time")
        let whenBy = stamp.authority.map { L("{1} by {2}", when, PathEncoding.display($0)) } ?? when
        guard stamp.holds else { return L("{1}, not used: {2}", whenBy, stamp.problem ?? "") }
        return L("{1} (the certificates are checked at that time)", whenBy)
    }

    /// A JSON value as `key: value` lines, nested by indentation; keys in order, so a new key needs no code.
    static func tree(_ value: JSONValue, indent: String) -> [String] {
        switch value {
        case .object(let members):
            return members.keys.sorted().flatMap { key -> [String] in
                let name = indent + PathEncoding.display(key) + ":"
                switch members[key]! {
                case .object, .array: return [name] + tree(members[key]!, indent: indent + "  ")
                case let scalar: return [name + " " + PathEncoding.display(text(scalar))]
                }
            }
        case .array(let items):
            return items.flatMap { item -> [String] in
                switch item {
                case .object, .array: return [indent + "-"] + tree(item, indent: indent + "  ")
                default: return [indent + "- " + PathEncoding.display(text(item))]
                }
            }
        default:
            return [indent + PathEncoding.display(text(value))]
        }
    }

    /// A scalar as a person reads it: text as it is, whole numbers without ".0".
    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .string(let text): return text
        case .array, .object: return value.kind
        }
    }

    /// What `--json` prints for one photo.
    struct Line: Encodable {
        let path: String
        let outcome: String
        /// The verdict in one plain sentence, in the run's language.
        let sentence: String
        let problem: String?
        let credentials: Bool
        /// "cut" or "damaged" when the credentials cannot be read.
        let damage: String?
        let signatureValid: Bool
        let unchanged: Bool
        let trusted: Bool
        let codeMatches: Bool?
        let code: String?
        let loggedCode: String?
        let isLoggedPhoto: Bool?
        let organization: String?
        let signedAt: String?
        let signer: CertificateInfo?
        let certificates: [CertificateInfo]
        let generator: String?
        let parent: Parent?
        let timeStamp: TimeStamp?
        let stamp: JSONTree?

        struct Parent: Encodable {
            let title: String?
            let generator: String?
            let signer: CertificateInfo?
            let holds: Bool
            let outcome: String
            let problem: String?
        }

        init(path: String, _ verification: Verification) {
            self.path = PathEncoding.display(path)
            outcome = verification.outcome.name
            sentence = VerdictSentence.text(verification)
            problem = verification.problem
            credentials = verification.hasCredentials
            switch verification.damage {
            case .cut?: damage = "cut"
            case .malformed?: damage = "damaged"
            case nil: damage = nil
            }
            signatureValid = verification.signatureValid
            unchanged = verification.bindingHolds
            trusted = verification.trusted
            codeMatches = verification.signatureValid && verification.bindingHolds ? verification.codeMatches : nil
            code = verification.code
            loggedCode = verification.loggedCode
            isLoggedPhoto = verification.isLoggedPhoto
            organization = verification.organization
            signedAt = verification.signedAt?.time.iso8601
            signer = verification.signer
            certificates = verification.certificates
            generator = verification.generator
            parent = verification.parent.map {
                Parent(title: $0.title, generator: $0.generator, signer: $0.signer, holds: $0.holds, outcome: $0.outcome.name, problem: $0.problem)
            }
            timeStamp = verification.timeStamp
            stamp = verification.stamp.map(JSONTree.init)
        }
    }

    /// What `--json` prints for a photo that cannot be read.
    struct Unreadable: Encodable {
        let path: String
        var outcome = "unreadable"
        let problem: String
    }

    /// A JSON value written back as JSON.
    struct JSONTree: Encodable {
        let value: JSONValue
        init(_ value: JSONValue) { self.value = value }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch value {
            case .null: try container.encodeNil()
            case .bool(let flag): try container.encode(flag)
            case .number(let number): try container.encode(number)
            case .string(let text): try container.encode(text)
            case .array(let items): try container.encode(items.map(JSONTree.init))
            case .object(let members): try container.encode(members.mapValues(JSONTree.init))
            }
        }
    }
}
