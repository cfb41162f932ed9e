import Platform
import Templates
import Values

/// The names photos get: the input's name or a `--name` template for `apply`, and
/// `YYYYMMDD-HHMMSS-NNNN.jpg` (capture time and a running number) for `shoot`; always one safe
/// file name inside the target folder. Names are byte-exact (see `PathEncoding`).
public enum PhotoName {
    /// The input's file name, or `template` rendered with `fields` plus `{basename}` (the input name
    /// without its extension), made safe. The values are the user's (or a browser's): shell
    /// characters in them become `_`, so a name never carries a command into a script that uses it.
    public static func make(template: TextTemplate?, input: String, fields: Fields) -> String {
        let fileName = lastComponent(input)
        // The output is a JPEG: a HEIC or PNG input keeps its name with .jpg in place of its extension.
        guard let template else {
            let lower = fileName.lowercased()
            return [".heic", ".heif", ".hif", ".png"].contains { lower.hasSuffix($0) } ? stem(fileName) + ".jpg" : fileName
        }
        var fields = fields
        let basename = stem(fileName)
        fields.extra["basename"] = basename
        return sanitised(template.render(fields, escape: shellSafe) ?? "", fallback: basename)
    }

    /// Characters by which a name pasted into a shell script runs a command or leaves its quotes
    /// (`$( )`, backticks, `;`, `|`, `&`, redirections, quotes, backslashes). Parentheses, globs
    /// and braces alone run nothing, and `IMG (1).jpg` keeps its name.
    static let shellCharacters = Set("$`;|&<>'\"\\")

    /// `value` with each shell character replaced by `_`.
    static func shellSafe(_ value: String) -> String {
        String(value.map { shellCharacters.contains($0) ? "_" : $0 })
    }

    /// `20261129-142233-0001.jpg` for a photo taken at `time`.
    public static func shot(time: Timestamp, number: Int) -> String {
        TimeFormat.format(time, "%Y%m%d-%H%M%S-") + zeroPadded(number, 4) + ".jpg"
    }

    /// One more than the highest number of a shot already in `folder`, so numbers keep counting up.
    public static func nextShotNumber(in folder: String) -> Int {
        let names = (try? FileSystem.list(FilePath(folder))) ?? []
        let highest = names.compactMap { name -> Int? in
            let parts = name.split(separator: "-")
            guard parts.count == 3, parts[0].count == 8, parts[1].count == 6, parts[2].hasSuffix(".jpg") else { return nil }
            return Int(parts[2].dropLast(4))
        }.max() ?? 0
        return highest + 1
    }

    /// One path component: no `/`, no control characters, no leading dots (so never `.` or `..`),
    /// at most 200 bytes, ending in a JPEG extension.
    public static func sanitised(_ name: String, fallback: String) -> String {
        var cleaned = String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
            scalar == "/" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F ? "_" : scalar
        }))
        while cleaned.first == "." || cleaned.first == " " { cleaned.removeFirst() }
        while cleaned.last == " " { cleaned.removeLast() }
        if cleaned.isEmpty || cleaned.allSatisfy({ $0 == "_" || $0 == "." }) {
            cleaned = fallback.isEmpty ? "photo" : sanitised(fallback, fallback: "photo")
        }
        while PathEncoding.encode(cleaned).count > 200 { cleaned.removeLast() }
        let lower = cleaned.lowercased()
        if !(lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")) { cleaned += ".jpg" }
        return cleaned
    }

    /// `a/b/IMG_1.JPG` → `IMG_1.JPG`
    public static func lastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed.lastIndex(of: "/").map { String(trimmed[trimmed.index(after: $0)...]) } ?? String(trimmed)
    }

    /// `IMG_1.JPG` → `IMG_1`; a leading dot is not an extension.
    public static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
