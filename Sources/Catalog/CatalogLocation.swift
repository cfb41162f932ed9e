import Platform

/// Where the catalog lives by default: `$XDG_DATA_HOME/stampcam/catalog.sqlite`, else
/// `~/.local/share/stampcam/catalog.sqlite`. The environment is passed in, never read here.
public enum CatalogLocation {
    public static func defaultPath(environment: [String: String]) -> String {
        dataHome(environment) + "/stampcam/catalog.sqlite"
    }

    /// `$XDG_DATA_HOME` when it is an absolute path (the XDG Base Directory rule), else `~/.local/share`.
    static func dataHome(_ environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data }
        return ProcessEnvironment.home(environment) + "/.local/share"
    }
}
