import Platform

extension PageWords {
    /// The check page's words (`/verify`), by the id its elements name; `{org}`, `{time}`,
    /// `{signer}` and `{code}` are filled in by the page.
    static func checkWords() -> [String: String] {
        [
            "check-title": Lp("check page", "Check a photo"),
            "check-intro": Lp("check page", "Choose a photo from {org}, or drop it here, to see whether it is unchanged since it was signed. It is checked on this server and not kept."),
            "check-choose": Lp("check page", "Choose a photo"),
            "check-code-label": Lp("check page", "Or type the code printed on the photo"),
            "check-code-button": Lp("check page", "Check the code"),
            "check-checking": Lp("check page", "Checking…"),
            "verdict-valid": Lp("check page", "Unchanged since a camera of {org} signed it on {time}."),
            "verdict-untrusted": Lp("check page", "Unchanged since it was signed, but not by {org}: it was signed by {signer}."),
            "verdict-expired": Lp("check page", "Unchanged since it was signed, but the certificate it was signed with was not valid then."),
            "verdict-changed": Lp("check page", "Changed after it was signed: the picture or its data is not what was signed."),
            "verdict-invalid": Lp("check page", "Its signature is damaged or does not match: nothing it says can be trusted."),
            "verdict-none": Lp("check page", "This photo carries no signature: it proves nothing about where or when it was taken."),
            "verdict-unreadable": Lp("check page", "This file could not be checked."),
            "verdict-time-stamped": Lp("check page", "A time-stamp authority confirms it was signed by {time}."),
            "code-found": Lp("check page", "The photo log of {org} holds a photo with the code {code}."),
            "code-not-found": Lp("check page", "The photo log of {org} holds no photo with the code {code}."),
            "code-malformed": Lp("check page", "“{code}” is not a code: a code has ten letters and digits, like K7MN-4XRT-9P."),
            "code-compare": Lp("check page", "Compare it with the photo you have:"),
            "fact-time": Lp("check page", "Taken"),
            "fact-project": Lp("check page", "Project"),
            "fact-site": Lp("check page", "Site"),
            "fact-user": Lp("check page", "By"),
            "fact-place": Lp("check page", "Place"),
            "check-too-many": Lp("check page", "Too many checks from here; wait a minute and try again."),
            "check-too-large": Lp("check page", "This file is too large to check here."),
            "check-details": Lp("check page", "Details"),
        ]
    }

    /// The answer to `/api/words` and `/verify/words`: the words in the best language of `list`
    /// (Accept-Language's form) and how its text runs.
    func response(for list: String) -> HTTPResponse {
        let (language, words) = answer(for: list)
        let direction = words["direction"] == "rtl" ? "rtl" : "ltr"
        return .json(WebJSON.bytes(WebJSON.Words(lang: String(language.map { $0 == "_" ? "-" : $0 }), dir: direction, words: words)),
                     headers: [("Vary", "Accept-Language")])
    }
}
