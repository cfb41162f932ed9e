import Templates

/// The file name an output gets: the input's name, or `--name` rendered with the photo's fields,
/// made safe to use as one file name in the output folder.
enum OutputName {
    /// `{basename}` is the input name without its extension; every template variable works too.
    static func make(template: TextTemplate?, input: String, fields: Fields) -> String {
        let fileName = ApplyCommand.baseName(input)
        guard let template else { return fileName }
        var fields = fields
        fields.extra["basename"] = fileName.split(separator: ".", omittingEmptySubsequences: false).count > 1
            ? String(fileName[..<fileName.lastIndex(of: ".")!]) : fileName
        let rendered = template.render(fields) { $0 } ?? ""
        return sanitised(rendered, fallback: fields.extra["basename"] ?? "photo")
    }

    /// One path component: no `/`, no control characters, no leading dots (so never `.` or `..`),
    /// at most 200 bytes, ending in a JPEG extension.
    static func sanitised(_ name: String, fallback: String) -> String {
        var cleaned = String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
            scalar == "/" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F ? "_" : scalar
        }))
        while cleaned.first == "." || cleaned.first == " " { cleaned.removeFirst() }
        while cleaned.last == " " { cleaned.removeLast() }
        if cleaned.isEmpty || cleaned.allSatisfy({ $0 == "_" || $0 == "." }) {
            cleaned = fallback.isEmpty ? "photo" : sanitised(fallback, fallback: "photo")
        }
        while cleaned.utf8.count > 200 { cleaned.removeLast() }
        let lower = cleaned.lowercased()
        if !(lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")) { cleaned += ".jpg" }
        return cleaned
    }
}
