/// The first built-in stamp: date and time, then user, project and location, each on its own line and
/// left out when empty. The template engine replaces this with styles loaded from templates/.
public enum BasicStamp {
    public static func lines(for fields: Fields) -> [String] {
        var lines: [String] = []
        if let time = fields.time {
            lines.append([time.dateText, time.timeText, time.offsetText].filter { !$0.isEmpty }.joined(separator: " "))
        }
        let labelled: [(String, String?)] = [
            ("User", fields.user), ("Project", fields.project), ("Location", fields.location),
        ]
        for (label, value) in labelled {
            if let value = value?.trimmed, !value.isEmpty { lines.append("\(label): \(value)") }
        }
        if fields.location?.trimmed.isEmpty ?? true, let lat = fields.latitude, let lon = fields.longitude {
            lines.append("GPS: \(Coordinates.decimal(latitude: lat, longitude: lon))")
        }
        return lines
    }
}

extension String {
    var trimmed: String {
        var slice = Substring(self)
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return String(slice)
    }
}
