import CWeb
import Platform

/// libmicrohttpd, opened when the web server first needs it (see CWeb.h).
enum WebLibraries {
    /// Its functions; throws when it cannot be loaded (the rest of stampcam works without it).
    static func load() throws(MissingLibrary) -> sc_web {
        var reason: UnsafePointer<CChar>?
        guard let table = sc_web_load(&reason) else {
            throw MissingLibrary(feature: "serve", packages: ["libmicrohttpd12"], reason: reason)
        }
        return table.pointee
    }

    /// Its functions, for code that runs only once a daemon is listening (so `load` succeeded).
    static var loaded: sc_web {
        guard let table = try? load() else { preconditionFailure("the web libraries are used before they were loaded") }
        return table
    }
}
