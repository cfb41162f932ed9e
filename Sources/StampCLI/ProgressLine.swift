import Values


/// The status line shown on a terminal during a batch: `[#####·····] 12/30  8.4/s  ETA 0:02`.
enum ProgressLine {
    static func render(done: Int, total: Int, seconds: Double, width: Int = 24) -> String {
        let fraction = total == 0 ? 1 : Double(done) / Double(total)
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "·", count: width - filled)
        var line = "[\(bar)] \(done)/\(total)"
        guard done > 0, seconds > 0 else { return line }
        let rate = Double(done) / seconds
        line += "  \(oneDecimal(rate))/s"
        if done < total {
            line += "  ETA " + clock(Double(total - done) / rate)
        }
        return line
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `0:07`, `12:30`, `1:02:03`
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up))
        let hours = total / 3600, minutes = total / 60 % 60, rest = total % 60
        return hours > 0 ? "\(hours):\(zeroPadded(minutes)):\(zeroPadded(rest))" : "\(minutes):\(zeroPadded(rest))"
    }
}
