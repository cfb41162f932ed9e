import Values

/// Random bytes for access tokens: the system's generator (getrandom(2) on Linux).
enum RandomBytes {
    static func make(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// `count` random bytes as lowercase hex.
    static func hex(_ count: Int) -> String { Hex.lowercase(make(count)) }
}
