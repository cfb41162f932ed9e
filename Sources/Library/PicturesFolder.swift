import Platform

/// Where shot photos go by default: `$XDG_PICTURES_DIR/stampcam`, else the Pictures folder named in
/// `~/.config/user-dirs.dirs`, else `~/Pictures/stampcam`.
public enum PicturesFolder {
    public static func locate(environment: [String: String]) -> String {
        let home = ProcessEnvironment.home(environment)
        if let pictures = environment["XDG_PICTURES_DIR"], !pictures.isEmpty {
            return pictures + "/stampcam"
        }
        if let bytes = try? FileSystem.read(FilePath(ConfigFolder.configHome(environment) + "/user-dirs.dirs"), limit: 1 << 16),
           let pictures = userDirsPictures(String(decoding: bytes, as: UTF8.self), home: home) {
            return pictures + "/stampcam"
        }
        return home + "/Pictures/stampcam"
    }

    /// The value of `XDG_PICTURES_DIR="$HOME/…"` in a user-dirs.dirs file.
    static func userDirsPictures(_ text: String, home: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("XDG_PICTURES_DIR=") {
            var value = line.dropFirst("XDG_PICTURES_DIR=".count)
            if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 { value = value.dropFirst().dropLast() }
            let path = value.hasPrefix("$HOME") ? home + value.dropFirst(5) : String(value)
            return path.isEmpty || path == home ? nil : path
        }
        return nil
    }
}
