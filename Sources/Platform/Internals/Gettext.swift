import CPlatform

/// glibc's gettext, through CPlatform: the one place its C calls are made.
enum Gettext {
    static func bind(domain: String, folder: String) -> Bool {
        sc_gettext_bind(domain, folder) == 0
    }

    static func use(languages: String?) {
        if let languages { sc_gettext_use(languages) } else { sc_gettext_use(nil) }
    }

    static func text(domain: String, _ text: String) -> String {
        String(cString: sc_gettext(domain, text))
    }

    static func text(domain: String, singular: String, plural: String, count: Int) -> String {
        String(cString: sc_ngettext(domain, singular, plural, UInt(clamping: count)))
    }
}
