import Platform
import Provenance
import Templates
import Values

/// The one sentence that opens a verdict on a photo, in words a client understands and in the
/// user's language: whether it is unchanged, who signed it and when, or what is wrong — before any
/// technical detail. The terminal and the check page say the same.
public enum VerdictSentence {
    /// The sentence for `verification`, with `words` for the date (the user's language's).
    public static func text(_ verification: Verification, words: StampWords = translatedWords()) -> String {
        if let logged = verification.loggedCode, verification.isLoggedPhoto == false {
            let own = verification.signatureValid && verification.bindingHolds ? verification.code : nil
            return own.map { L("This is not the photo logged with the code {1}: it carries the code {2}.", logged, $0) }
                ?? L("This is not the photo logged with the code {1}: it carries no signed code.", logged)
        }
        switch verification.damage {
        case .cut?: return L("The file is cut short: it ends inside its credentials, so it is not the whole photo that was signed.")
        case .malformed?: return L("Its credentials are damaged and cannot be read: nothing shows who made it or that it is unchanged.")
        case nil: break
        }
        let when = verification.signedAt.map { moment($0.time, words: words) }
        let who = verification.organization
        switch verification.outcome {
        case .noCredentials:
            return L("It carries no credentials: nothing shows who made it, when, or that it is unchanged.")
        case .changed, .invalid:
            if verification.signatureValid && verification.bindingHolds && verification.parent?.holds == false {
                return L("Unchanged since it was signed, but the photo it was made from had been changed: what it shows is not proved.")
            }
            if verification.outcome == .changed {
                return L("Changed after it was signed: the picture or its data is not what was signed.")
            }
            return verification.signatureValid ? L("Signed with a certificate that may not sign photos: nothing shows who made it.")
                : L("Its signature does not hold: nothing shows who made it or that it is unchanged.")
        case .untrusted:
            switch (who, when) {
            case let (who?, when?): return L("Unchanged since it was signed on {1}, in the name of {2}; no certificate you trust vouches for that name.", when, who)
            case let (who?, nil): return L("Unchanged since it was signed in the name of {1}; no certificate you trust vouches for that name.", who)
            case let (nil, when?): return L("Unchanged since it was signed on {1}, by a signer no certificate you trust vouches for.", when)
            case (nil, nil): return L("Unchanged since it was signed, by a signer no certificate you trust vouches for.")
            }
        case .expired:
            let signed = unchanged(who: who, when: when)
            return L("{1} But the signer's certificate is not valid today.", signed)
        case .valid:
            return unchanged(who: who, when: when)
        }
    }

    /// "Unchanged since Acme Site Services' camera signed it on 4 Dec 2026 at 10:41 (+02:00)."
    static func unchanged(who: String?, when: String?) -> String {
        switch (who, when) {
        case let (who?, when?):
            // TRANSLATORS: {1} is an organisation's name ending in "s" (English writes Services'), {2} a date and time.
            return who.hasSuffix("s") ? L("Unchanged since {1}' camera signed it on {2}.", who, when)
                : L("Unchanged since {1}'s camera signed it on {2}.", who, when)
        case let (who?, nil):
            return who.hasSuffix("s") ? L("Unchanged since {1}' camera signed it.", who) : L("Unchanged since {1}'s camera signed it.", who)
        case let (nil, when?):
            return L("Unchanged since it was signed on {1}.", when)
        case (nil, nil):
            return L("Unchanged since it was signed.")
        }
    }

    /// "4 Dec 2026 at 10:41 (+02:00)": the day with the month's short name, the time, its zone when known.
    static func moment(_ time: Timestamp, words: StampWords) -> String {
        let date = TimeFormat.format(time, words.longDate.replacing("%B", with: "%b"), words: words)
        let clock = TimeFormat.format(time, "%H:%M", words: words)
        return time.utcOffsetMinutes == nil ? L("{1} at {2}", date, clock) : L("{1} at {2} ({3})", date, clock, time.exifOffset)
    }

    /// The stamp's words in the run's language.
    public static func translatedWords() -> StampWords {
        StampWords.translated { word, context in Lp(context, word) }
    }
}
