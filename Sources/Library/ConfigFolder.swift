import Platform

/// stampcam's configuration folder: `$XDG_CONFIG_HOME/stampcam`, else `~/.config/stampcam`. Holds
/// `config.json` and the user's `templates/`. The environment is passed in, never read here.
public enum ConfigFolder {
    public static func locate(environment: [String: String]) -> String {
        configHome(environment) + "/stampcam"
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    static func configHome(_ environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty { return config }
        return ProcessEnvironment.home(environment) + "/.config"
    }
}
