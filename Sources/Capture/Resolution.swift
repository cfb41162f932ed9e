/// A frame size in pixels.
public struct Resolution: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses "1280x720" (also "1280X720"); nil for anything else or a side outside 1…65535.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (1...65535).contains(width), (1...65535).contains(height) else { return nil }
        self.init(width: width, height: height)
    }

    public var description: String { "\(width)x\(height)" }
    public var pixelCount: Int { width * height }
}
