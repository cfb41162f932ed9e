extension Timestamp {
    /// `2026:11:29 14:22:33`: how EXIF writes a date and time.
    public var exifText: String {
        "\(zeroPadded(year, 4)):\(zeroPadded(month)):\(zeroPadded(day)) \(timeText)"
    }

    /// `+08:00` (`+00:00` for UTC), as EXIF's OffsetTime tags write it; empty when unknown.
    public var exifOffset: String {
        guard let minutes = utcOffsetMinutes else { return "" }
        return (minutes < 0 ? "-" : "+") + zeroPadded(abs(minutes) / 60) + ":" + zeroPadded(abs(minutes) % 60)
    }
}
