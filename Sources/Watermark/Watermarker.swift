import Imaging
import Templates

/// Draws stamps onto photos. Holds the fonts; not thread-safe, so use one per worker thread.
public final class Watermarker {
    private let fontMap: FontMap

    /// `fontConfig` is the path of fonts/fonts.conf (the private fontconfig setup).
    public init(fontConfig: String) throws(WatermarkError) {
        fontMap = try FontMap(configFile: fontConfig)
    }

    /// Draws `fields` as the basic stamp at the bottom-left of `photo`, in place. Sizes follow the
    /// photo's short side so the stamp looks the same at 640 px and at 4000 px.
    public func stamp(_ photo: Photo, with fields: Fields) {
        let lines = BasicStamp.lines(for: fields)
        guard !lines.isEmpty else { return }
        let shortSide = Double(min(photo.width, photo.height))
        let margin = (shortSide * 0.025).rounded()
        let fontSize = max(9, shortSide * 0.032)
        let box = TextBox(lines: lines, fontSize: fontSize,
                          maxWidth: Double(photo.width) - 2 * margin,
                          padding: (fontSize * 0.6).rounded(), cornerRadius: fontSize * 0.35)
        CairoSurface(photo.bitmap).draw { context in
            box.draw(in: context, fontMap: fontMap, bottomLeft: (margin, Double(photo.height) - margin))
        }
    }
}
