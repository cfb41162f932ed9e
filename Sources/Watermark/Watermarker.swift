import Imaging
import Templates

/// Draws templates onto photos with Cairo and Pango. A render is a pure function of (photo,
/// template, fields): no clock or environment is read here. Holds fonts and logos; not thread-safe,
/// so use one per worker thread.
public final class Watermarker {
    let text: TextContext
    private var logos: [String: LogoImage] = [:]

    /// `fontConfig` is the path of fonts/fonts.conf (the private fontconfig setup).
    public init(fontConfig: String) throws(WatermarkError) {
        text = try TextContext(configFile: fontConfig)
    }

    /// What a render drew: where, and whether every character had a glyph.
    public struct Report: Sendable {
        /// The rectangle of each block drawn (blocks with nothing to show are left out).
        public var boxes: [(x: Double, y: Double, width: Double, height: Double)] = []
        /// Characters no configured font could show (they print as boxes).
        public var unknownGlyphs = 0
    }

    /// `photo` stamped: a new value, the given one untouched.
    public func stamped(_ photo: Photo, template: Template, fields: Fields) throws(WatermarkError) -> Photo {
        var copy = photo
        try stamp(&copy, template: template, fields: fields)
        return copy
    }

    /// Applies the template's tone and draws its blocks onto `photo`. Only this value changes: a
    /// copy of the photo made before (a kept original, another style's review) keeps its pixels.
    @discardableResult
    public func stamp(_ photo: inout Photo, template: Template, fields: Fields) throws(WatermarkError) -> Report {
        photo.bitmap.apply(template.tone)
        var logoImages: [LogoImage?] = []
        for block in template.blocks {
            logoImages.append(try block.logo.map { logo throws(WatermarkError) in
                try self.logo(logo.file.hasPrefix("/") ? logo.file : template.folder + "/" + logo.file)
            })
        }
        var report = Report()
        let (width, height) = (Double(photo.width), Double(photo.height))
        photo.bitmap.draw { cr in
            text.prepare(for: cr)
            for (block, logo) in zip(template.blocks, logoImages) {
                BlockRenderer(block: block, width: width, height: height,
                              context: text.context, logo: logo).draw(cr, fields: fields, into: &report)
            }
        }
        return report
    }

    /// Problems in a template's texts that loading cannot see: Pango markup errors.
    public func markupProblems(in template: Template) -> [String] {
        var problems: [String] = []
        for (index, block) in template.blocks.enumerated() {
            let texts = [block.title?.text].compactMap { $0 } + block.lines.map(\.text) + block.aside.map(\.text)
            for text in texts {
                guard let skeleton = try? TextTemplate(text).skeleton() else { continue }
                if !TextLayout.isValidMarkup(skeleton) {
                    problems.append("blocks[\(index)]: \"\(text)\" is not valid Pango markup")
                }
            }
        }
        return problems
    }

    private func logo(_ path: String) throws(WatermarkError) -> LogoImage {
        if let cached = logos[path] { return cached }
        let image = try LogoImage(path: path)
        logos[path] = image
        return image
    }
}
