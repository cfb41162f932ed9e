import Imaging

/// Draws a picture in a terminal with truecolor half blocks: each cell's `▀` shows two pixels, the top
/// one as the foreground and the bottom one as the background. Works in every truecolor terminal,
/// inside tmux and over SSH.
enum HalfBlocks {
    /// The largest size with the picture's aspect that fits `columns` × `rows` cells (two pixels a cell
    /// vertically).
    static func fit(width: Int, height: Int, columns: Int, rows: Int) -> (columns: Int, pixelRows: Int) {
        guard width > 0, height > 0, columns > 0, rows > 0 else { return (0, 0) }
        let scale = min(Double(columns) / Double(width), Double(rows * 2) / Double(height))
        let fittedColumns = max(1, Int((Double(width) * scale).rounded(.down)))
        var pixelRows = max(2, Int((Double(height) * scale).rounded(.down)))
        pixelRows -= pixelRows % 2
        return (fittedColumns, pixelRows)
    }

    /// `rows` empty lines of `columns` cells.
    static func blank(columns: Int, rows: Int) -> [String] {
        Array(repeating: String(repeating: " ", count: max(0, columns)), count: max(0, rows))
    }

    /// `rows` lines of exactly `columns` cells: the picture letterboxed in the middle.
    static func render(_ picture: Bitmap, columns: Int, rows: Int) -> [String] {
        let size = fit(width: picture.width, height: picture.height, columns: columns, rows: rows)
        guard size.columns > 0, let small = try? picture.scaled(width: size.columns, height: size.pixelRows) else {
            return blank(columns: columns, rows: rows)
        }
        let cellRows = size.pixelRows / 2
        let top = (rows - cellRows) / 2, left = (columns - size.columns) / 2
        let blank = String(repeating: " ", count: columns)
        var lines = Array(repeating: blank, count: top)
        for row in 0..<cellRows {
            var line = String(repeating: " ", count: left)
            var last: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)?
            for column in 0..<size.columns {
                let upper = small.rgb(x: column, y: row * 2), lower = small.rgb(x: column, y: row * 2 + 1)
                let colours = (upper.red, upper.green, upper.blue, lower.red, lower.green, lower.blue)
                // Colour codes only when they change: a frame is then a fraction of the bytes over SSH.
                if last.map({ $0 != colours }) ?? true {
                    line += "\u{1B}[38;2;\(upper.red);\(upper.green);\(upper.blue);48;2;\(lower.red);\(lower.green);\(lower.blue)m"
                    last = colours
                }
                line += "▀"
            }
            line += "\u{1B}[0m" + String(repeating: " ", count: columns - left - size.columns)
            lines.append(line)
        }
        lines += Array(repeating: blank, count: rows - top - cellRows)
        return lines
    }
}
