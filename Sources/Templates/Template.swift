/// A watermark style: data, not code. Read from JSON (see templates/README.md); every size is a
/// fraction of the photo's short side so a stamp looks the same on 640 px and on 4000 px.
public struct Template: Sendable, Equatable {
    /// The format version this build reads.
    public static let formatVersion = 1

    public var id: String
    public var name: String
    public var description: String
    public var version: Int
    /// Position in the style cycle (next/previous); ties go by id.
    public var order: Int
    /// A tone applied to the whole photo before stamping.
    public var tone: Tone
    /// How `{date}`, `{time}` and `{datetime}` are written, and the mark a file time gets.
    public var timeStyle: TimeStyle = .standard
    public var blocks: [Block]
    /// The folder the template was read from; logo files are relative to it.
    public var folder: String
    /// The file's name, as errors and problems name it (`site.json`).
    public var file: String

    /// The most blocks a template may have, and lines (or aside lines) a block may have.
    public static let maxBlocks = 16
    public static let maxLinesPerBlock = 20

    public enum Tone: String, Sendable, CaseIterable { case none, mono, sepia }

    /// The 9-position grid a block is anchored on.
    public enum Anchor: String, Sendable, CaseIterable {
        case topLeft = "top-left", top, topRight = "top-right"
        case left, center, right
        case bottomLeft = "bottom-left", bottom, bottomRight = "bottom-right"

        /// 0, 0.5 or 1 across and down the photo.
        public var fractions: (x: Double, y: Double) {
            switch self {
            case .topLeft: return (0, 0)
            case .top: return (0.5, 0)
            case .topRight: return (1, 0)
            case .left: return (0, 0.5)
            case .center: return (0.5, 0.5)
            case .right: return (1, 0.5)
            case .bottomLeft: return (0, 1)
            case .bottom: return (0.5, 1)
            case .bottomRight: return (1, 1)
            }
        }
    }

    public enum Alignment: String, Sendable, CaseIterable { case left, center, right }
    public enum Overflow: String, Sendable, CaseIterable { case wrap, ellipsis }
    public enum Weight: String, Sendable, CaseIterable { case normal, bold }

    /// An sRGB colour with alpha, from `#rrggbb` or `#rrggbbaa`.
    public struct Color: Sendable, Equatable {
        public var red: Double, green: Double, blue: Double, alpha: Double

        public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }

        public init?(hex: String) {
            let digits = Array(hex.utf8)
            guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
            var values: [Double] = []
            for index in stride(from: 1, to: digits.count, by: 2) {
                guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                    return nil
                }
                values.append(Double(byte) / 255)
            }
            self.init(red: values[0], green: values[1], blue: values[2], alpha: values.count == 4 ? values[3] : 1)
        }

        public static let white = Color(red: 1, green: 1, blue: 1)
        public static let black = Color(red: 0, green: 0, blue: 0)
    }

    public struct Font: Sendable, Equatable {
        public var family: String
        /// Pixel size as a fraction of the short side.
        public var size: Double
        public var weight: Weight

        public init(family: String = "Sans", size: Double = 0.032, weight: Weight = .normal) {
            self.family = family
            self.size = size
            self.weight = weight
        }
    }

    public struct Shadow: Sendable, Equatable {
        public var color: Color
        /// Offset down and right, as a fraction of the font size.
        public var offset: Double

        public init(color: Color, offset: Double) {
            self.color = color
            self.offset = offset
        }
    }

    public struct Outline: Sendable, Equatable {
        public var color: Color
        /// Stroke width as a fraction of the font size.
        public var width: Double

        public init(color: Color, width: Double) {
            self.color = color
            self.width = width
        }
    }

    public struct Box: Sendable, Equatable {
        public var color: Color
        public var opacity: Double
        /// Fractions of the short side.
        public var radius: Double
        public var padding: Double

        public init(color: Color, opacity: Double, radius: Double, padding: Double) {
            self.color = color
            self.opacity = opacity
            self.radius = radius
            self.padding = padding
        }
    }

    /// A coloured bar across the top of the box, e.g. the project on a site-report card.
    public struct Title: Sendable, Equatable {
        public var text: String
        public var color: Color
        public var background: Color
        public var font: Font

        public init(text: String, color: Color, background: Color, font: Font) {
            self.text = text
            self.color = color
            self.background = background
            self.font = font
        }
    }

    public struct Line: Sendable, Equatable {
        /// Pango markup with `{variables}`; variable values are escaped.
        public var text: String
        public var align: Alignment
        public var font: Font
        public var color: Color

        public init(text: String, align: Alignment = .left, font: Font = Font(), color: Color = .white) {
            self.text = text
            self.align = align
            self.font = font
            self.color = color
        }
    }

    public struct Logo: Sendable, Equatable {
        /// A PNG file, relative to the template's folder; empty for a QR code.
        public var file: String
        /// Height as a fraction of the short side.
        public var size: Double
        public var position: Position
        /// The photo's QR code (`Fields.verificationQR`) in place of a file: a template's `qr`.
        public var qr: Bool

        public enum Position: String, Sendable, CaseIterable { case left, right, top }

        public init(file: String, size: Double, position: Position, qr: Bool = false) {
            self.file = file
            self.size = size
            self.position = position
            self.qr = qr
        }
    }

    public struct Block: Sendable, Equatable {
        public var anchor: Anchor
        /// Distance from the photo's edges, fractions of the short side (x, y).
        public var margin: (x: Double, y: Double)
        /// The widest the block may be, as a fraction of the photo's width.
        public var maxWidth: Double
        /// The box spans the photo's width between the margins.
        public var fullWidth: Bool
        public var box: Box?
        public var title: Title?
        public var lines: [Line]
        /// Lines in a right-hand column, right-aligned (e.g. the time on a banner).
        public var aside: [Line]
        public var overflow: Overflow
        /// Extra space between lines, as a fraction of the font size.
        public var lineSpacing: Double
        /// Distance between tab stops, in multiples of the font size: a tab lines values up after labels.
        public var tabWidth: Double
        public var shadow: Shadow?
        public var outline: Outline?
        public var logo: Logo?

        public static func == (a: Block, b: Block) -> Bool {
            a.anchor == b.anchor && a.margin == b.margin && a.maxWidth == b.maxWidth && a.fullWidth == b.fullWidth
                && a.box == b.box && a.title == b.title && a.lines == b.lines && a.aside == b.aside
                && a.overflow == b.overflow && a.lineSpacing == b.lineSpacing && a.tabWidth == b.tabWidth && a.shadow == b.shadow
                && a.outline == b.outline && a.logo == b.logo
        }
    }
}
