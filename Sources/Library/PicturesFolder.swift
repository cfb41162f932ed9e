import Foundation

/// Where shot photos go by default: `$XDG_PICTURES_DIR/stampcam`, else the Pictures folder named in
/// `~/.config/user-dirs.dirs`, else `~/Pictures/stampcam`.
public enum PicturesFolder {
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        if let pictures = environment["XDG_PICTURES_DIR"], !pictures.isEmpty {
            return pictures + "/stampcam"
        }
        if let text = try? String(contentsOfFile: ConfigFolder.configHome(environment) + "/user-dirs.dirs", encoding: .utf8),
           let pictures = userDirsPictures(text, home: home) {
            return pictures + "/stampcam"
        }
        return home + "/Pictures/stampcam"
    }

    /// The value of `XDG_PICTURES_DIR="$HOME/…"` in a user-dirs.dirs file.
    static func userDirsPictures(_ text: String, home: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("XDG_PICTURES_DIR=") {
            var value = line.dropFirst("XDG_PICTURES_DIR=".count)
            if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 { value = value.dropFirst().dropLast() }
            let path = value.replacingOccurrences(of: "$HOME", with: home)
            return path.isEmpty || path == home ? nil : path
        }
        return nil
    }
}
