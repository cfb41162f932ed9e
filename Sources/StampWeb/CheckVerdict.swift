import Provenance
import Session
import Values

/// What the check page says of a photo, as JSON for the page (which words it in the browser's
/// language) and for scripts: the outcome, who signed, when, and the code on its stamp with
/// whether the organisation's photo log holds it.
struct CheckVerdict: Encodable {
    /// `valid`, `untrusted`, `expired`, `noCredentials`, `changed`, `invalid` (as `stampcam verify --json`).
    let outcome: String
    let organization: String
    /// Who signed, in a person's words: the signer's organisation (O=), else its subject.
    let signer: String?
    /// The photo's time as its stamp records it (ISO 8601 with its offset).
    let time: String?
    /// When a trusted time-stamp authority saw the signature (UTC), when one did.
    let timeStamped: String?
    /// The code on the stamp, and what the photo log says of it (nil when not looked up).
    let code: String?
    let log: Code?
    /// Why it is not valid, in one line of facts.
    let problem: String?

    /// The photo log's answer for a code.
    struct Code: Encodable {
        let code: String
        /// `found`, `notFound` or `malformed`.
        let answer: String
        let organization: String
        let facts: [String: String]
        let thumbnail: String?

        init(_ lookup: CodeLookup.Answer, typed: String, organization: String) {
            self.organization = organization
            switch lookup {
            case .malformed:
                code = ManifestPrintable.cut(typed)
                answer = "malformed"
                facts = [:]
                thumbnail = nil
            case .notFound(let code):
                self.code = code
                answer = "notFound"
                facts = [:]
                thumbnail = nil
            case .found(let code, let facts, _):
                self.code = code
                answer = "found"
                self.facts = facts
                thumbnail = CheckPage.thumbnailPath + "?code=" + code
            }
        }
    }

    init(_ verification: Verification, organization: String, lookUp: (String) -> CodeLookup.Answer?) {
        outcome = verification.outcome.name
        self.organization = organization
        signer = verification.signer.map { $0.organization ?? $0.subject }
        var stampTime: String?, stampCode: String?
        if case .object(let stamp)? = verification.stamp {
            if case .object(let time)? = stamp["time"], case .string(let value)? = time["value"] { stampTime = value }
            if case .string(let value)? = stamp["code"] { stampCode = value }
        }
        time = stampTime
        timeStamped = verification.timeStamp.flatMap { $0.holds ? $0.time : nil }
            .map { Timestamp(secondsSinceEpoch: $0, utcOffsetMinutes: 0).iso8601 }
        code = stampCode
        // A changed or forged photo's code says nothing: it is not looked up.
        let unchanged = [.valid, .untrusted, .expired].contains(verification.outcome)
        log = unchanged ? stampCode.flatMap(lookUp).map { Code($0, typed: stampCode ?? "", organization: organization) } : nil
        problem = verification.problem
    }

    /// The verdict in one sentence of `words` (the page's words of one language).
    func sentence(_ words: [String: String]) -> String {
        let key: String
        switch outcome {
        case "valid": key = "verdict-valid"
        case "untrusted": key = "verdict-untrusted"
        case "expired": key = "verdict-expired"
        case "changed": key = "verdict-changed"
        case "invalid": key = "verdict-invalid"
        default: key = "verdict-none"
        }
        let shown = (time ?? timeStamped).flatMap { Timestamp(iso8601: $0) }.map { "\($0.dateText) \($0.timeText) (\($0.offsetText))" }
        return CheckVerdict.fill(words[key] ?? key, ["org": organization, "time": shown ?? "?", "signer": signer ?? "?"])
    }

    /// `template` with each `{name}` replaced by its value, in one pass: a value that holds `{…}`
    /// (an organisation's name) is never filled in again.
    static func fill(_ template: String, _ values: [String: String]) -> String {
        var text = "", rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            text += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let value = values[String(after[..<close])] {
                text += value
                rest = after[after.index(after: close)...]
            } else {
                text += "{"
                rest = after
            }
        }
        return text + rest
    }
}

/// Text a visitor typed, as an answer may repeat it: control characters dropped, at most 40 characters.
enum ManifestPrintable {
    static func cut(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.properties.generalCategory != .control }.prefix(40).map(Character.init))
    }
}
