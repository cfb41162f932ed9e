import Imaging
import Templates
import Values

/// What a render draws: everything, everything but the text, or only the text's shapes in white.
package enum RenderMode: Sendable {
    case normal, withoutText, textMask
}

/// Draws templates onto photos with Cairo and Pango. A render is a pure function of (photo,
/// template, fields): no clock or environment is read here. Holds fonts; not thread-safe, so use one
/// per worker thread. Logos come from a `LogoCache`, shared by all of them.
public final class Watermarker {
    let text: TextContext
    let logos: LogoCache
    /// Templates already validated, with the variable names they were validated for, and their errors.
    private var validations: [(template: Template, variables: Set<String>, errors: [TemplateProblem])] = []
    /// The last template drawn, its texts parsed: a viewfinder draws the same one frame after frame.
    private var parsed: ParsedTemplate?

    /// `fontConfig` is the path of fonts/fonts.conf (the private fontconfig setup). `logos` is where
    /// logos are loaded and kept; the process-wide cache unless a test wants its own.
    public init(fontConfig: String, logos: LogoCache = .shared) throws(WatermarkError) {
        LibraryLog.install()
        text = try TextContext(configFile: fontConfig)
        self.logos = logos
    }

    /// What a render drew: where, and what the user may want to know about it.
    public struct Report: Sendable {
        /// The rectangle of each block drawn (blocks with nothing to show are left out).
        public var boxes: [(x: Double, y: Double, width: Double, height: Double)] = []
        /// Characters no configured font could show (they print as boxes).
        public var unknownGlyphs = 0
        /// The characters behind `unknownGlyphs`, each once, in the order they appear.
        public var missingCharacters: [Unicode.Scalar] = []
        /// Field values cut to `Fields.maxValueLength` characters.
        public var truncations: [Fields.Truncation] = []
        /// What Pango or GLib logged while drawing: nothing, for a template that passed `validate`.
        public var libraryMessages: [String] = []
        /// Where each line of text was inked.
        public var textRects: [(x: Double, y: Double, width: Double, height: Double)] = []
        /// Backings drawn behind box-less blocks whose text would not read on this photo.
        public var backings = 0
        /// Fields whose lines did not fit even wrapped and end in "…" (`note`, `location` …).
        public var cutFields: [String] = []
        /// The style drawn, as `cutFields`' warning names it.
        public var style = ""
        /// Each text line drawn, as Pango laid it out: the fields it shows, on how many lines, and
        /// whether it ends in "…".
        package var lines: [(fields: [String], lineCount: Int, cut: Bool)] = []

        /// One line per thing worth telling the user, e.g.
        /// `no configured font can show U+1F3D7 🏗 (add a font file to fonts/)` or
        /// `project: 2000 characters, cut to the first 199 and "…"`.
        public var warnings: [String] {
            (missingCharacters.isEmpty ? [] : [Watermarker.missingGlyphsText(missingCharacters)])
                + truncations.map(\.description) + (cutFields.isEmpty ? [] : [Watermarker.cutText(cutFields, style: style)])
                + libraryMessages
        }
    }

    /// `photo` stamped: a new value, the given one untouched. Throws as `stamp` does.
    public func stamped(_ photo: Photo, template: Template, fields: Fields) throws -> Photo {
        var copy = photo
        try stamp(&copy, template: template, fields: fields)
        return copy
    }

    /// Applies the template's tone and draws its blocks onto `photo`. Only this value changes: a
    /// copy of the photo made before (a kept original, another style's review) keeps its pixels.
    ///
    /// The template must pass `validate` with the names in `fields.extra` as the extra variables:
    /// otherwise this throws its first error as a `TemplateError` (naming file and JSON path) and
    /// leaves the photo alone. A logo that cannot be used throws `WatermarkError.logo`. Field values
    /// are shown as `Fields.prepared` makes them; what was cut is in the report.
    @discardableResult
    public func stamp(_ photo: inout Photo, template: Template, fields: Fields) throws -> Report {
        try stamp(&photo, template: template, fields: fields, mode: .normal)
    }

    /// `stamp`, drawing only part of the stamp (for legibility tests): the same layout, backings and
    /// boxes in every mode.
    @discardableResult
    package func stamp(_ photo: inout Photo, template: Template, fields: Fields, mode: RenderMode) throws -> Report {
        try draw(on: &photo.bitmap, top: 0, width: photo.width, height: photo.height, template: template, fields: fields, mode: mode,
                 tone: true)
    }

    /// Draws the template's blocks, laid out for an upright photo of `width` × `height`, onto
    /// `window`: the pixels from (`left`, `top`) on of the photo as its file stores it, which
    /// `orientation` turns upright (a photo stamped in place decodes only the blocks its stamp
    /// covers, and turns no pixel). What falls outside the window is not drawn; the report's boxes
    /// are in upright coordinates. The template's tone, which changes the whole photo, is not applied.
    @discardableResult
    public func stamp(window: inout Bitmap, left: Int = 0, top: Int, width: Int, height: Int, orientation: Orientation = .up,
                      template: Template, fields: Fields) throws -> Report {
        try draw(on: &window, left: left, top: top, width: width, height: height, orientation: orientation, template: template,
                 fields: fields, mode: .normal, tone: false)
    }

    /// The stamp alone, as a PNG of `width` × `height` with a transparent background: what the
    /// template draws on a photo of that size, to lay over a live picture. With no photo below,
    /// no backing is added for contrast: the template's own boxes and colours are drawn.
    public func overlayPNG(width: Int, height: Int, template: Template, fields: Fields) throws -> [UInt8] {
        guard var bitmap = Bitmap(width: width, height: height) else { throw ImageError.outOfMemory(width: width, height: height) }
        _ = try draw(on: &bitmap, top: 0, width: width, height: height, template: template, fields: fields, mode: .normal, tone: false,
                     transparent: true)
        return bitmap.pngBytes(transparent: true)
    }

    private func draw(on bitmap: inout Bitmap, left: Int = 0, top: Int, width photoWidth: Int, height photoHeight: Int, orientation: Orientation = .up,
                      template: Template, fields: Fields, mode: RenderMode, tone: Bool, transparent: Bool = false) throws -> Report {
        try requireValid(template, variables: Set(fields.extra.keys))
        let (width, height) = (Double(photoWidth), Double(photoHeight))
        var logoImages: [LogoImage?] = []
        for block in template.blocks {
            logoImages.append(try block.logo.flatMap { spec throws(WatermarkError) -> LogoImage? in
                if spec.qr {
                    // No QR code before the photo's code is known (a preview): the block is laid out without it.
                    guard let text = fields.verificationQR, let code = QRMatrix(text) else { return nil }
                    let side = BlockRenderer.logoSize(block, width: width, height: height, source: (code.size, code.size)).width
                    return LogoImage(qr: code, side: side)
                }
                return try logos.image(logoPath(spec, in: template)) { sourceWidth, sourceHeight in
                    BlockRenderer.logoSize(block, width: width, height: height, source: (sourceWidth, sourceHeight))
                }
            })
        }
        let (shown, truncations) = fields.prepared()
        if parsed?.template != template { parsed = ParsedTemplate(template) }
        let texts = parsed?.texts ?? [:], markPath = parsed?.markPath
        if tone { bitmap.apply(template.tone) }
        var report = Report()
        report.truncations = truncations
        report.style = template.id
        report.libraryMessages = LibraryLog.shared.collecting {
            bitmap.draw(origin: (left, top), transparent: transparent) { cr in
                let turned = orientation.swapsDimensions
                StoredFrame.apply(orientation, storedWidth: turned ? photoHeight : photoWidth,
                                  storedHeight: turned ? photoWidth : photoHeight, to: cr)
                text.prepare(for: cr)
                for (index, (block, logo)) in zip(template.blocks, logoImages).enumerated() {
                    BlockRenderer(block: block, width: width, height: height, context: text.context, logo: logo,
                                  timeStyle: template.timeStyle, texts: texts, markPath: markPath, index: index, mode: mode)
                        .draw(cr, fields: shown, into: &report)
                }
            }
        }.messages
        return report
    }

    /// A template's texts parsed once, and the one that says "(file time)" when the time is the
    /// file's: of the texts showing the time, the one in the smallest font (the date under a big
    /// clock), the first of those.
    struct ParsedTemplate {
        let template: Template
        let texts: [String: TextTemplate]
        let markPath: String?

        init(_ template: Template) {
            self.template = template
            var texts: [String: TextTemplate] = [:]
            for text in template.texts where texts[text.text] == nil { texts[text.text] = try? TextTemplate(text.text) }
            self.texts = texts
            markPath = template.texts.filter { texts[$0.text]?.showsTime == true }.min { $0.font.size < $1.font.size }?.path
        }
    }

    /// Throws the first error `validate` finds (without warnings or logo checks, which drawing makes),
    /// remembering templates already checked.
    private func requireValid(_ template: Template, variables: Set<String>) throws(TemplateError) {
        let errors: [TemplateProblem]
        if let known = validations.first(where: { $0.variables == variables && $0.template == template }) {
            errors = known.errors
        } else {
            errors = problems(in: template, variables: variables, warnings: false, logos: false).filter(\.isError)
            validations.append((template, variables, errors))
            if validations.count > 16 { validations.removeFirst() }
        }
        guard let first = errors.first else { return }
        var error = first.error
        if errors.count > 1 {
            error.problem += " (and \(errors.count - 1) more problem\(errors.count > 2 ? "s" : "") in this template)"
        }
        throw error
    }

    /// Where a block's logo file is: its path, relative to the template's folder unless absolute.
    func logoPath(_ logo: Template.Logo, in template: Template) -> String {
        logo.file.hasPrefix("/") ? logo.file : template.folder + "/" + logo.file
    }

    /// `no configured font can show U+1F3D7 🏗, U+2705 ✅ (add a font file to fonts/)`
    public static func missingGlyphsText(_ characters: [Unicode.Scalar]) -> String {
        "no configured font can show " + characters.map(describe).joined(separator: ", ") + " (add a font file to fonts/)"
    }

    /// `note does not fit in the style 'banner' on this photo and is cut with "…" (shorten it, or
    /// choose a style with more room)`
    public static func cutText(_ fields: [String], style: String) -> String {
        let names = fields.joined(separator: ", ")
        return "\(names) \(fields.count == 1 ? "does" : "do") not fit in the style '\(style)' on this photo and "
            + "\(fields.count == 1 ? "is" : "are") cut with \"…\" (shorten \(fields.count == 1 ? "it" : "them"), or choose a style with more room)"
    }

    /// `U+1F3D7 🏗`; the code alone for a character that does not print (a control, a combining mark).
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = Hex.codePoint(scalar)
        let properties = scalar.properties
        let printable = !properties.isDefaultIgnorableCodePoint && properties.generalCategory != .control
            && properties.generalCategory != .nonspacingMark && properties.generalCategory != .enclosingMark
            && properties.generalCategory != .format && !properties.isWhitespace
        return printable ? code + " " + String(Character(scalar)) : code
    }
}
