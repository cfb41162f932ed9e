internal import CCairo
internal import CPango
import Imaging
import Templates
import Values

extension Watermarker {
    /// Tiles photos in a grid on a dark background, each captioned underneath: the way to compare
    /// styles side by side.
    public func contactSheet(_ tiles: [(photo: Photo, caption: String)], columns: Int) -> Photo? {
        guard let first = tiles.first else { return nil }
        let tileWidth = tiles.map(\.photo.width).max() ?? first.photo.width
        let tileHeight = tiles.map(\.photo.height).max() ?? first.photo.height
        let gap = max(8, tileWidth / 40)
        let columns = max(1, min(columns, tiles.count))
        let rows = (tiles.count + columns - 1) / columns
        // Each row as tall as its tallest photo: a row of portraits does not stretch the others.
        let rowHeights = (0..<rows).map { row in
            tiles[(row * columns)..<min(tiles.count, (row + 1) * columns)].map(\.photo.height).max() ?? tileHeight
        }
        let captionHeight = max(16, min(tileWidth, tileHeight) / 12)
        let rowTops = rowHeights.indices.map { row in
            gap + rowHeights[..<row].reduce(0) { $0 + $1 + captionHeight + gap }
        }
        let width = columns * tileWidth + (columns + 1) * gap
        let height = rowHeights.reduce(0) { $0 + $1 + captionHeight } + (rows + 1) * gap
        guard var sheet = Bitmap(width: width, height: height) else { return nil }
        let captionSize = Double(captionHeight) * 0.55
        let captionFont = Template.Font(size: 0, weight: .bold)
        sheet.draw { cr in
            cairo_set_source_rgb(cr, 0.13, 0.13, 0.13)
            cairo_paint(cr)
            text.prepare(for: cr)
            for (index, tile) in tiles.enumerated() {
                let x = gap + (index % columns) * (tileWidth + gap)
                let y = rowTops[index / columns], rowHeight = rowHeights[index / columns]
                tile.photo.bitmap.withCairoSource { source in
                    cairo_set_source_surface(cr, source, Double(x + (tileWidth - tile.photo.width) / 2),
                                             Double(y + (rowHeight - tile.photo.height) / 2))
                    cairo_paint(cr)
                }
                let caption = TextLayout(context: text.context, markup: Markup.escape(tile.caption), font: captionFont,
                                         pixelSize: captionSize, align: .center, overflow: .ellipsis)
                caption.constrain(width: Double(tileWidth))
                caption.draw(cr, x: Double(x), y: Double(y + rowHeight) + Double(captionHeight) * 0.2,
                          color: .white, fontSize: captionSize, shadow: nil, outline: nil)
            }
        }
        return Photo(bitmap: sheet)
    }
}
