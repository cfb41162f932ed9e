import CPlatform
#if canImport(Glibc)
import Glibc
#endif

/// glibc's gettext, through CPlatform: the one place its C calls are made.
enum Gettext {
    static func bind(domain: String, folder: String) -> Bool {
        sc_gettext_bind(domain, folder) == 0
    }

    static func use(languages: String?) {
        if let languages { sc_gettext_use(languages) } else { sc_gettext_use(nil) }
    }

    /// The LANGUAGE variable, which `use` sets and child processes inherit.
    static var languageVariable: String? {
        get { getenv("LANGUAGE").map { String(cString: $0) } }
        set { if let newValue { setenv("LANGUAGE", newValue, 1) } else { unsetenv("LANGUAGE") } }
    }

    // Without a translation gettext returns the pointer it was given: the text is copied while
    // the C strings passed in are still alive.
    static func text(domain: String, _ text: String) -> String {
        text.withCString { id in String(cString: sc_gettext(domain, id)) }
    }

    static func text(domain: String, singular: String, plural: String, count: Int) -> String {
        singular.withCString { one in
            plural.withCString { many in String(cString: sc_ngettext(domain, one, many, UInt(clamping: count))) }
        }
    }
}
