internal import CCairo
import Templates
import Values

/// Lays out and draws one template block on a photo of a given size. Every size is derived from the
/// photo's short side, so the block looks the same at any resolution.
struct BlockRenderer {
    let block: Template.Block
    let width: Double
    let height: Double
    let context: OpaquePointer
    /// The block's logo, already scaled to the size it is drawn (`logoSize`).
    let logo: LogoImage?
    /// How times are written, and the mark a file time gets.
    var timeStyle: TimeStyle = .standard
    /// The template's texts, parsed (by their source text).
    var texts: [String: TextTemplate] = [:]
    /// The JSON path of the one text that carries the file-time mark (`blocks[0].lines[0]`), and
    /// this block's index.
    var markPath: String?
    var index = 0
    var mode: RenderMode = .normal

    /// How many lines one template line may wrap to; the last one ends in "…". Keeps a long value
    /// from pushing the block's other lines (the date) off the photo.
    static let maxWrappedLines = 3

    private var shortSide: Double { min(width, height) }

    private struct PlacedLine {
        let text: StampLine
        let line: Template.Line
        var fontSize: Double
        /// The fields whose values the line shows: what a warning names when the line is cut.
        var shows: [String] = []
    }

    /// Everything measured before drawing.
    private struct Plan {
        var main: [PlacedLine]
        var aside: [PlacedLine]
        var title: (layout: TextLayout, spec: Template.Title, fontSize: Double)?
        var padding: Double
        var gap: Double
        var logoRoom: Double
        /// The right-hand column's width and the gap before it.
        var asideRoom: Double
        /// The stamp's language is written right to left: the block reads from the right.
        var rightToLeft: Bool
        var logoBeside: Bool
        var logoAbove: Double
        var x: Double
        var y: Double
        var boxWidth: Double
        var boxHeight: Double
        var titleHeight: Double
        var titlePadding: Double
        var bodyHeight: Double
        var mainHeight: Double
        var asideHeight: Double
    }

    /// The box's width limit and padding, which the logo's size also depends on.
    private static func frame(_ block: Template.Block, width: Double, height: Double) -> (maxWidth: Double, padding: Double) {
        let shortSide = min(width, height)
        let padding = ((block.box?.padding ?? 0) * shortSide).rounded()
        let marginX = (block.margin.x * shortSide).rounded()
        let available = width - 2 * marginX
        return (block.fullWidth ? available : min(block.maxWidth * width, available), padding)
    }

    /// The size a logo of `source` pixels is drawn at: `logo.size` of the short side high, and no
    /// wider than the box leaves it (half of it beside the text, all of it above).
    static func logoSize(_ block: Template.Block, width: Double, height: Double,
                         source: (width: Int, height: Int)) -> (width: Int, height: Int) {
        guard let spec = block.logo else { return (1, 1) }
        let aspectRatio = Double(source.width) / Double(max(1, source.height))
        var drawnHeight = (spec.size * min(width, height)).rounded()
        var drawnWidth = (drawnHeight * aspectRatio).rounded()
        let frame = frame(block, width: width, height: height)
        let room = (frame.maxWidth - 2 * frame.padding) / (spec.position == .top ? 1 : 2)
        if drawnWidth > room {
            drawnHeight = (drawnHeight * room / drawnWidth).rounded(.down)
            drawnWidth = room.rounded(.down)
        }
        return (Int(max(1, drawnWidth)), Int(max(1, drawnHeight)))
    }

    /// The size in pixels text in `font` is drawn at on a photo whose short side is `shortSide`.
    static func pixelSize(_ font: Template.Font, shortSide: Double) -> Double { max(6, font.size * shortSide) }

    /// Text layouts of the lines that have something to show. Lines with a label and a tab get
    /// one value column, after the widest label (`StampLine`). A line showing the time wraps as far
    /// as it takes: a stamp never cuts the time.
    private func layouts(_ lines: [Template.Line], kind: String, fields: Fields, overflow: Template.Overflow,
                         maxLines: Int) -> [PlacedLine] {
        let placed = lines.enumerated().compactMap { number, line -> PlacedLine? in
            guard let markup = markup(line.text, path: "blocks[\(index)].\(kind)[\(number)]", fields: fields) else { return nil }
            let fontSize = Self.pixelSize(line.font, shortSide: shortSide)
            let parsed = texts[line.text] ?? (try? TextTemplate(line.text))
            let showsTime = parsed?.showsTime == true
            return PlacedLine(text: StampLine(context: context, markup: markup, font: line.font, pixelSize: fontSize,
                                              align: line.align, overflow: showsTime ? .wrap : overflow, tabWidth: block.tabWidth,
                                              maxLines: showsTime ? nil : maxLines, rightToLeft: fields.words.rightToLeft),
                              line: line, fontSize: fontSize, shows: parsed?.shownNames(fields) ?? [])
        }
        let labelled = placed.compactMap { item in item.text.labelWidth.map { (item, $0) } }
        let stop = labelled.map { max(block.tabWidth * $0.0.fontSize, $0.1 + 0.6 * $0.0.fontSize) }.max() ?? 0
        for (item, _) in labelled { item.text.setColumn(stop) }
        return placed
    }

    /// A text's markup with the fields filled in, and the time's mark (file time, set by hand) when this is its text.
    private func markup(_ text: String, path: String, fields: Fields) -> String? {
        // In a right-to-left stamp every value is isolated, so a date's numbers and signs keep their order.
        let rightToLeft = fields.words.rightToLeft
        let escape: (String) -> String = { rightToLeft ? Self.isolated($0) : Markup.escape($0) }
        guard let markup = (texts[text] ?? (try? TextTemplate(text)))?.render(fields, style: timeStyle, escape: escape) else { return nil }
        guard path == markPath, let mark = fields.timeMark(timeStyle) else { return markup }
        // A line that already says it (`{time_source}` shows "file time") is not told twice.
        if markup.contains(Markup.escape(mark)) { return markup }
        // The mark wraps as one word: "(file time)" is never split over two lines.
        return markup + " <small>(" + Markup.escape(mark).replacing(" ", with: "\u{A0}") + ")</small>"
    }

    /// `text` escaped for a right-to-left line: one without right-to-left letters (a date, a
    /// number, a Latin name) in a left-to-right embedding (U+202A … U+202C), which Pango keeps in
    /// order where it does not honour an isolate.
    static func isolated(_ text: String) -> String {
        Markup.hasRightToLeft(text) ? Markup.escape(text) : "\u{202A}" + Markup.escape(text) + "\u{202C}"
    }

    private func stackHeight(_ lines: [PlacedLine]) -> Double {
        guard !lines.isEmpty else { return 0 }
        let spacing = lines.dropLast().reduce(0) { $0 + block.lineSpacing * $1.fontSize }
        return lines.reduce(0) { $0 + $1.text.size.height } + spacing
    }

    /// Draws the block and records where it went in `report`. A line cut beside the right-hand
    /// column gets the whole width: the column goes under it. A block taller than the photo is laid
    /// out again with each line on one line; one still too tall keeps its top on the photo.
    func draw(_ cr: OpaquePointer, fields: Fields, into report: inout Watermarker.Report) {
        guard var plan = plan(fields: fields, maxLines: Self.maxWrappedLines, stacked: false) else { return }
        if !plan.aside.isEmpty, plan.main.contains(where: \.text.isEllipsized),
           let stacked = self.plan(fields: fields, maxLines: Self.maxWrappedLines, stacked: true) {
            plan = stacked
        }
        let marginY = (block.margin.y * shortSide).rounded()
        if plan.boxHeight > height - 2 * marginY,
           let single = self.plan(fields: fields, maxLines: 1, stacked: false) {
            plan = single
        }
        render(plan, cr, into: &report)
        // What still does not fit ends in "…": the report names its fields, so the user is told.
        var cut = (plan.main + plan.aside).filter(\.text.isEllipsized).flatMap(\.shows)
        if let title = plan.title, title.layout.isEllipsized {
            cut = ((texts[title.spec.text] ?? (try? TextTemplate(title.spec.text)))?.shownNames(fields) ?? []) + cut
        }
        for name in cut where !report.cutFields.contains(name) { report.cutFields.append(name) }
        report.lines += (plan.main + plan.aside).map { ($0.shows, $0.text.lineCount, $0.text.isEllipsized) }
    }

    /// `stacked`: the right-hand column's lines go under the others.
    private func plan(fields: Fields, maxLines: Int, stacked: Bool) -> Plan? {
        var main = layouts(block.lines, kind: "lines", fields: fields, overflow: block.overflow, maxLines: maxLines)
        var aside = layouts(block.aside, kind: "aside", fields: fields, overflow: .ellipsis, maxLines: 1)
        let titleMarkup = block.title.flatMap { markup($0.text, path: "blocks[\(index)].title.text", fields: fields) }
        guard !main.isEmpty || !aside.isEmpty || titleMarkup != nil else { return nil }

        let (maxWidth, padding) = Self.frame(block, width: width, height: height)
        let baseFont = (main.first ?? aside.first).map(\.fontSize) ?? block.title.map { $0.font.size * shortSide } ?? 12
        let gap = max(padding, (baseFont * 0.6).rounded())
        let marginX = (block.margin.x * shortSide).rounded(), marginY = (block.margin.y * shortSide).rounded()

        // Logo, then the right-hand column, then what is left for the main lines.
        let logoSize = (width: Double(logo?.width ?? 0), height: Double(logo?.height ?? 0))
        let logoBeside = block.logo.map { $0.position != .top } ?? false
        let logoRoom = logo != nil && logoBeside ? logoSize.width + gap : 0
        let asideWidth = aside.map(\.text.size.width).max() ?? 0
        if stacked || asideWidth > (maxWidth - 2 * padding - logoRoom) / 2 {
            // The right-hand column would take more than half the box (a portrait photo's banner),
            // or leave a line too little room: its lines go under the others, with the whole width.
            main += aside
            aside = []
        }
        for item in aside { item.text.constrain(width: asideWidth) }
        let asideRoom = aside.isEmpty ? 0 : asideWidth + gap
        let mainLimit = max(1, maxWidth - 2 * padding - logoRoom - asideRoom)
        let natural = main.map(\.text.size.width).max() ?? 0

        var title: (layout: TextLayout, spec: Template.Title, fontSize: Double)?
        if let titleMarkup, let spec = block.title {
            let fontSize = Self.pixelSize(spec.font, shortSide: shortSide)
            // A long title wraps to a second line, then ends in "…".
            title = (TextLayout(context: context, markup: titleMarkup, font: spec.font, pixelSize: fontSize,
                                align: .left, overflow: .wrap, maxLines: maxLines > 1 ? 2 : 1,
                                rightToLeft: fields.words.rightToLeft), spec, fontSize)
        }
        let titlePadding = title.map { ($0.fontSize * 0.45).rounded() } ?? 0
        let titleNatural = title.map { $0.layout.size.width + 2 * max(padding, titlePadding) } ?? 0

        var contentWidth = block.fullWidth ? mainLimit : min(natural, mainLimit)
        var boxWidth = contentWidth + logoRoom + asideRoom + 2 * padding
        if logo != nil && !logoBeside { boxWidth = max(boxWidth, logoSize.width + 2 * padding) }
        if !block.fullWidth && titleNatural > boxWidth {
            boxWidth = min(titleNatural, maxWidth)
            contentWidth = boxWidth - logoRoom - asideRoom - 2 * padding
        }
        boxWidth = boxWidth.rounded(.up)
        for item in main { item.text.constrain(width: contentWidth) }
        title?.layout.constrain(width: boxWidth - 2 * max(padding, titlePadding))

        let titleHeight = title.map { $0.layout.size.height + 2 * titlePadding } ?? 0
        let logoAbove = logo != nil && !logoBeside ? logoSize.height + gap : 0
        let mainHeight = stackHeight(main), asideHeight = stackHeight(aside)
        let bodyHeight = max(mainHeight + logoAbove, asideHeight, logoBeside ? logoSize.height : 0)
        let hasBody = bodyHeight > 0
        let boxHeight = (titleHeight + (hasBody ? bodyHeight + 2 * padding : 0)).rounded(.up)

        // A box larger than the photo keeps its top-left corner on it: the first lines stay visible.
        let anchor = block.anchor.fractions
        let x = max(0, (marginX + anchor.x * (width - 2 * marginX - boxWidth)).rounded())
        let y = max(0, (marginY + anchor.y * (height - 2 * marginY - boxHeight)).rounded())
        return Plan(main: main, aside: aside, title: title, padding: padding, gap: gap, logoRoom: logoRoom,
                    asideRoom: asideRoom, rightToLeft: fields.words.rightToLeft, logoBeside: logoBeside, logoAbove: logoAbove, x: x, y: y, boxWidth: boxWidth, boxHeight: boxHeight,
                    titleHeight: titleHeight, titlePadding: titlePadding, bodyHeight: bodyHeight,
                    mainHeight: mainHeight, asideHeight: asideHeight)
    }

    private func render(_ plan: Plan, _ cr: OpaquePointer, into report: inout Watermarker.Report) {
        let (x, y, boxWidth, boxHeight, padding) = (plan.x, plan.y, plan.boxWidth, plan.boxHeight, plan.padding)
        let bodyTop = y + plan.titleHeight + padding
        let rightToLeft = plan.rightToLeft
        var textLeft = x + padding
        if logo != nil, plan.logoBeside && block.logo?.position == .left { textLeft += plan.logoRoom }
        // A right-to-left stamp reads from the right: its right-hand column goes to the left.
        let asideLeft = textLeft
        if rightToLeft { textLeft += plan.asideRoom }

        // Where each line goes, before anything is drawn: legibility is judged on what lies under them.
        var placed: [(item: PlacedLine, x: Double, y: Double)] = []
        // Left-aligned lines start their ink at one x: a large clock's digits have wide side bearings
        // and would otherwise sit visibly right of the small lines under them.
        let startsLeft: (PlacedLine) -> Bool = { $0.line.align == .left && !rightToLeft }
        let inkLeft = plan.main.filter(startsLeft).map { $0.text.ink.x }.min() ?? 0
        var lineTop = bodyTop + plan.logoAbove + (plan.bodyHeight - plan.logoAbove - plan.mainHeight) / 2
        for item in plan.main {
            let shift = startsLeft(item) ? (item.text.ink.x - inkLeft).rounded() : 0
            placed.append((item, textLeft - shift, lineTop.rounded()))
            lineTop += item.text.size.height + block.lineSpacing * item.fontSize
        }
        let asideRight = x + boxWidth - padding - (block.logo?.position == .right ? plan.logoRoom : 0)
        var asideTop = bodyTop + (plan.bodyHeight - plan.asideHeight) / 2
        for item in plan.aside {
            let lineX = rightToLeft ? asideLeft : asideRight - item.text.size.width - item.text.offsetX
            placed.append((item, lineX, asideTop.rounded()))
            asideTop += item.text.size.height + block.lineSpacing * item.fontSize
        }

        let cover = legibleCover(placed, cr, plan: plan)
        if mode != .textMask {
            if let box = block.box {
                roundedRectangle(cr, x: x, y: y, width: boxWidth, height: boxHeight, radius: box.radius * shortSide)
                setColor(cr, box.color, opacity: cover?.opacity ?? box.opacity)
                cairo_fill(cr)
            } else if let cover {
                roundedRectangle(cr, x: cover.rect.x, y: cover.rect.y, width: cover.rect.width, height: cover.rect.height,
                                 radius: cover.rect.radius)
                setColor(cr, cover.color, opacity: cover.opacity)
                cairo_fill(cr)
                report.backings += 1
            }
        }
        report.boxes.append((x, y, boxWidth, boxHeight))
        var drawn: [TextLayout] = []
        if let title = plan.title {
            if mode != .textMask {
                cairo_save(cr)
                roundedRectangle(cr, x: x, y: y, width: boxWidth, height: boxHeight,
                                 radius: (block.box?.radius ?? 0) * shortSide)
                cairo_clip(cr)
                cairo_rectangle(cr, x, y, boxWidth, plan.titleHeight)
                setColor(cr, title.spec.background)
                cairo_fill(cr)
                cairo_restore(cr)
            }
            if mode != .withoutText {
                title.layout.draw(cr, x: x + max(padding, plan.titlePadding), y: y + plan.titlePadding, color: title.spec.color,
                                  fontSize: title.fontSize, shadow: nil, outline: nil, mask: mode == .textMask)
            }
            drawn.append(title.layout)
        }
        if let logo, mode != .textMask {
            let logoX = plan.logoBeside && block.logo?.position == .right ? x + boxWidth - padding - Double(logo.width)
                : x + padding
            logo.draw(cr, x: logoX, y: bodyTop)
        }
        for (item, lineX, lineY) in placed {
            if mode != .withoutText {
                item.text.draw(cr, x: lineX, y: lineY, color: item.line.color, fontSize: item.fontSize,
                               shadow: block.shadow, outline: block.outline, mask: mode == .textMask)
            }
            let ink = item.text.ink
            report.textRects.append((lineX + ink.x, lineY + ink.y, ink.width, ink.height))
            drawn += item.text.parts
        }
        for layout in drawn where layout.unknownGlyphs > 0 {
            report.unknownGlyphs += layout.unknownGlyphs
            for scalar in layout.missingCharacters where !report.missingCharacters.contains(scalar) {
                report.missingCharacters.append(scalar)
            }
        }
    }

    /// What must lie under the text for it to read at WCAG's 4.5:1 on this photo: the box at a
    /// higher opacity than the template's, or, for a block without a box, a backing behind the
    /// lines. Nil when the photo (or the box as the template has it) is enough.
    private func legibleCover(_ placed: [(item: PlacedLine, x: Double, y: Double)], _ cr: OpaquePointer, plan: Plan)
        -> (color: Template.Color, opacity: Double, rect: (x: Double, y: Double, width: Double, height: Double, radius: Double))? {
        guard !placed.isEmpty, let backdrop = Legibility.Backdrop(cr) else { return nil }
        let samples = placed.map { item, lineX, lineY in
            let ink = item.text.ink
            return Legibility.Sample(color: item.line.color,
                                     backdrop: backdrop.samples(x: lineX + ink.x, y: lineY + ink.y, width: ink.width, height: ink.height))
        }
        let rect = (x: plan.x, y: plan.y, width: plan.boxWidth, height: plan.boxHeight, radius: 0.0)
        if let box = block.box {
            guard !Legibility.isLegible(samples, cover: box.color, opacity: box.opacity),
                  let opacity = Legibility.opacity(for: samples, cover: box.color, from: box.opacity) else { return nil }
            return (box.color, opacity, rect)
        }
        let color = Legibility.backing(for: placed.map(\.item.line.color))
        guard !Legibility.isLegible(samples, cover: color, opacity: 0) else { return nil }
        let opacity = Legibility.opacity(for: samples, cover: color, from: 0.3) ?? 0.95
        // The backing reaches a little past the text (and its shadow) all round, and stays on the photo.
        let base = placed.map(\.item.fontSize).min() ?? 12
        let pad = (base * 0.45).rounded()
        let left = max(0, placed.map { $0.x + $0.item.text.ink.x }.min()! - pad)
        let top = max(0, plan.y - pad)
        let right = min(width, placed.map { $0.x + $0.item.text.ink.x + $0.item.text.ink.width }.max()! + pad)
        let bottom = min(height, plan.y + plan.boxHeight + pad)
        return (color, opacity, (left, top, right - left, bottom - top, pad * 0.8))
    }

    private func roundedRectangle(_ cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double,
                                  radius: Double) {
        let r = min(radius, width / 2, height / 2)
        guard r > 0.5 else {
            cairo_rectangle(cr, x, y, width, height)
            return
        }
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + width - r, y + r, r, -.pi / 2, 0)
        cairo_arc(cr, x + width - r, y + height - r, r, 0, .pi / 2)
        cairo_arc(cr, x + r, y + height - r, r, .pi / 2, .pi)
        cairo_arc(cr, x + r, y + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }
}
