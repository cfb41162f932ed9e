import CCairo
import Templates

/// Lays out and draws one template block on a photo of a given size. Every size is derived from the
/// photo's short side, so the block looks the same at any resolution.
struct BlockRenderer {
    let block: Template.Block
    let width: Double
    let height: Double
    let context: OpaquePointer
    let logo: LogoImage?

    private var shortSide: Double { min(width, height) }

    private struct PlacedLine {
        let text: TextLayout
        let line: Template.Line
        var fontSize: Double
    }

    /// Text layouts of the lines that have something to show.
    private func layouts(_ lines: [Template.Line], fields: Fields, overflow: Template.Overflow) -> [PlacedLine] {
        lines.compactMap { line in
            guard let markup = try? TextTemplate(line.text).render(fields) else { return nil }
            let fontSize = max(6, line.font.size * shortSide)
            return PlacedLine(text: TextLayout(context: context, markup: markup, font: line.font, pixelSize: fontSize,
                                               align: line.align, overflow: overflow, tabWidth: block.tabWidth),
                              line: line, fontSize: fontSize)
        }
    }

    private func stackHeight(_ lines: [PlacedLine]) -> Double {
        guard !lines.isEmpty else { return 0 }
        let spacing = lines.dropLast().reduce(0) { $0 + block.lineSpacing * $1.fontSize }
        return lines.reduce(0) { $0 + $1.text.size.height } + spacing
    }

    /// Draws the block and records where it went in `report`.
    func draw(_ cr: OpaquePointer, fields: Fields, into report: inout Watermarker.Report) {
        let main = layouts(block.lines, fields: fields, overflow: block.overflow)
        let aside = layouts(block.aside, fields: fields, overflow: .ellipsis)
        let titleMarkup = block.title.flatMap { try? TextTemplate($0.text).render(fields) }
        guard !main.isEmpty || !aside.isEmpty || titleMarkup != nil else { return }

        let padding = ((block.box?.padding ?? 0) * shortSide).rounded()
        let baseFont = (main.first ?? aside.first).map(\.fontSize) ?? block.title.map { $0.font.size * shortSide } ?? 12
        let gap = max(padding, (baseFont * 0.6).rounded())
        let marginX = (block.margin.x * shortSide).rounded(), marginY = (block.margin.y * shortSide).rounded()
        let available = width - 2 * marginX
        let maxWidth = block.fullWidth ? available : min(block.maxWidth * width, available)

        // Logo, then the right-hand column, then what is left for the main lines.
        var logoSize = (width: 0.0, height: 0.0)
        if let logo, let spec = block.logo {
            logoSize.height = (spec.size * shortSide).rounded()
            logoSize.width = (logoSize.height * logo.aspectRatio).rounded()
        }
        let logoBeside = block.logo.map { $0.position != .top } ?? false
        let logoRoom = logo != nil && logoBeside ? logoSize.width + gap : 0
        var asideWidth = aside.map(\.text.size.width).max() ?? 0
        asideWidth = min(asideWidth, (maxWidth - 2 * padding) / 2)
        for item in aside { item.text.constrain(width: asideWidth) }
        let asideRoom = aside.isEmpty ? 0 : asideWidth + gap
        let mainLimit = max(1, maxWidth - 2 * padding - logoRoom - asideRoom)
        let natural = main.map(\.text.size.width).max() ?? 0

        var title: (layout: TextLayout, spec: Template.Title, fontSize: Double)?
        if let titleMarkup, let spec = block.title {
            let fontSize = max(6, spec.font.size * shortSide)
            title = (TextLayout(context: context, markup: titleMarkup, font: spec.font, pixelSize: fontSize,
                                align: .left, overflow: .ellipsis), spec, fontSize)
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

        let anchor = block.anchor.fractions
        let x = (marginX + anchor.x * (width - 2 * marginX - boxWidth)).rounded()
        let y = (marginY + anchor.y * (height - 2 * marginY - boxHeight)).rounded()

        if let box = block.box {
            roundedRectangle(cr, x: x, y: y, width: boxWidth, height: boxHeight, radius: box.radius * shortSide)
            setColor(cr, box.color, opacity: box.opacity)
            cairo_fill(cr)
        }
        report.boxes.append((x, y, boxWidth, boxHeight))
        var unknown = 0
        if let title {
            cairo_save(cr)
            roundedRectangle(cr, x: x, y: y, width: boxWidth, height: boxHeight,
                             radius: (block.box?.radius ?? 0) * shortSide)
            cairo_clip(cr)
            cairo_rectangle(cr, x, y, boxWidth, titleHeight)
            setColor(cr, title.spec.background)
            cairo_fill(cr)
            cairo_restore(cr)
            title.layout.draw(cr, x: x + max(padding, titlePadding), y: y + titlePadding, color: title.spec.color,
                              fontSize: title.fontSize, shadow: nil, outline: nil)
            unknown += title.layout.unknownGlyphs
        }

        let bodyTop = y + titleHeight + padding
        var textLeft = x + padding
        if let logo {
            let logoX = logoBeside && block.logo?.position == .right ? x + boxWidth - padding - logoSize.width
                : x + padding
            logo.draw(cr, x: logoX, y: bodyTop, width: logoSize.width, height: logoSize.height)
            if logoBeside && block.logo?.position == .left { textLeft += logoRoom }
        }
        var lineTop = bodyTop + logoAbove + (bodyHeight - logoAbove - mainHeight) / 2
        for item in main {
            item.text.draw(cr, x: textLeft, y: lineTop.rounded(), color: item.line.color, fontSize: item.fontSize,
                           shadow: block.shadow, outline: block.outline)
            lineTop += item.text.size.height + block.lineSpacing * item.fontSize
            unknown += item.text.unknownGlyphs
        }
        let asideRight = x + boxWidth - padding - (block.logo?.position == .right ? logoRoom : 0)
        var asideTop = bodyTop + (bodyHeight - asideHeight) / 2
        for item in aside {
            let itemWidth = item.text.size.width
            item.text.draw(cr, x: asideRight - itemWidth - item.text.offsetX, y: asideTop.rounded(),
                           color: item.line.color, fontSize: item.fontSize, shadow: block.shadow, outline: block.outline)
            asideTop += item.text.size.height + block.lineSpacing * item.fontSize
            unknown += item.text.unknownGlyphs
        }
        report.unknownGlyphs += unknown
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
