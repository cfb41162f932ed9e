internal import CCairo
import Templates

/// One line of a block as drawn. A line with a label (`label\tvalue`) is two layouts in two
/// columns: the label at the line's start, the value in a column after the block's widest label,
/// wrapping within it. In a right-to-left stamp the columns mirror: the label on the right, the
/// value to its left. A value column too narrow for a few words puts the value under its label,
/// with the line's whole width.
final class StampLine {
    /// The label, for a line with a tab.
    let label: TextLayout?
    /// The value after the tab, or the whole line.
    let value: TextLayout
    private let rightToLeft: Bool
    private let fontSize: Double
    /// Where the value column starts, from the line's start edge (0 without a label).
    private var column = 0.0
    /// The width the line was given (`constrain`); nil: as wide as it needs.
    private var width: Double?
    /// The value goes under the label: beside it, it would have too little room.
    private(set) var stacked = false

    init(context: OpaquePointer, markup: String, font: Template.Font, pixelSize: Double, align: Template.Alignment,
         overflow: Template.Overflow, tabWidth: Double, maxLines: Int?, rightToLeft: Bool) {
        let text = MarkupText(markup)
        func layout(_ text: MarkupText, align: Template.Alignment, maxLines: Int?) -> TextLayout {
            TextLayout(context: context, text: text, font: font, pixelSize: pixelSize, align: align, overflow: overflow,
                       tabWidth: tabWidth, maxLines: maxLines, rightToLeft: rightToLeft)
        }
        if let (label, value) = text.labelAndValue {
            // A label is a word or two: it never wraps.
            self.label = layout(label, align: .left, maxLines: 1)
            self.value = layout(value, align: align, maxLines: maxLines)
        } else {
            self.label = nil
            self.value = layout(text, align: align, maxLines: maxLines)
        }
        self.rightToLeft = rightToLeft
        fontSize = pixelSize
    }

    /// The label's width in pixels, for a line with one.
    var labelWidth: Double? { label?.size.width }

    /// Starts the value column `x` pixels from the line's start (after the block's widest label).
    func setColumn(_ x: Double) { column = label == nil ? 0 : x }

    /// Wrap or ellipsize at `width` pixels. The value stays beside its label while its column has
    /// room for what it shows, up to a few words; else it goes under the label.
    func constrain(width: Double) {
        self.width = width
        guard let label else {
            value.constrain(width: width)
            return
        }
        let room = width - column
        stacked = room < min(value.size.width, Self.fewWords * fontSize)
        label.constrain(width: width)
        value.constrain(width: stacked ? width : room)
    }

    /// How many font sizes wide a value column must be for a few words.
    static let fewWords = 8.0

    /// Where the label and the value are drawn, from the line's top-left corner.
    private var positions: (label: (x: Double, y: Double), value: (x: Double, y: Double)) {
        guard let label else { return ((0, 0), (0, 0)) }
        let labelSize = label.size
        let lineWidth = width ?? column + value.size.width
        let labelX = rightToLeft ? lineWidth - labelSize.width - label.offsetX : -label.offsetX
        if stacked { return ((labelX, 0), (0, labelSize.height)) }
        return ((labelX, 0), (rightToLeft ? 0 : column, 0))
    }

    /// Logical size in pixels.
    var size: (width: Double, height: Double) {
        let valueSize = value.size
        guard let label else { return valueSize }
        let labelSize = label.size
        if stacked { return (max(labelSize.width, valueSize.width), labelSize.height + valueSize.height) }
        return (column + valueSize.width, max(labelSize.height, valueSize.height))
    }

    /// Left edge of the logical extents (non-zero for centred or right-aligned text in a set width).
    var offsetX: Double { label == nil ? value.offsetX : 0 }

    /// The inked pixels' rectangle, relative to where the line is drawn.
    var ink: (x: Double, y: Double, width: Double, height: Double) {
        guard let label else { return value.ink }
        let at = positions
        let rects = [(label.ink, at.label), (value.ink, at.value)].filter { $0.0.width > 0 && $0.0.height > 0 }
        guard !rects.isEmpty else { return (0, 0, 0, 0) }
        let left = rects.map { $0.0.x + $0.1.x }.min()!, top = rects.map { $0.0.y + $0.1.y }.min()!
        let right = rects.map { $0.0.x + $0.1.x + $0.0.width }.max()!
        let bottom = rects.map { $0.0.y + $0.1.y + $0.0.height }.max()!
        return (left, top, right - left, bottom - top)
    }

    /// The layouts of the line, label first.
    var parts: [TextLayout] { [label, value].compactMap { $0 } }

    /// Some of the text was cut and ends in "…".
    var isEllipsized: Bool { parts.contains { $0.isEllipsized } }

    /// How many lines the text takes.
    var lineCount: Int { stacked ? parts.map(\.lineCount).reduce(0, +) : parts.map(\.lineCount).max() ?? 0 }

    /// Draws with the top-left of the line at (x, y), as `TextLayout.draw`.
    func draw(_ cr: OpaquePointer, x: Double, y: Double, color: Template.Color, fontSize: Double,
              shadow: Template.Shadow?, outline: Template.Outline?, mask: Bool = false) {
        let at = positions
        label?.draw(cr, x: x + at.label.x, y: y + at.label.y, color: color, fontSize: fontSize,
                    shadow: shadow, outline: outline, mask: mask)
        value.draw(cr, x: x + at.value.x, y: y + at.value.y, color: color, fontSize: fontSize,
                   shadow: shadow, outline: outline, mask: mask)
    }
}
