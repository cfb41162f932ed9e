internal import CCairo
import Templates

#if canImport(Glibc)
import Glibc
#endif

/// WCAG 2 contrast of stamp text against the photo under it, and the backing that brings it up to
/// `minimumContrast`: text must stay readable on snow and on night shots alike.
enum Legibility {
    /// WCAG's AA level for normal text is 4.5:1 between the text's colour and its background. Drawn
    /// glyphs are thinner than their colour (anti-aliased edges mix with the photo), so backings are
    /// chosen for a little more.
    static let minimumContrast = 5.2
    /// The share of the backdrop's pixels that may fall short (a glint, a lone bright pixel).
    static let tolerated = 0.01

    /// Relative luminance (0…1) of 8-bit sRGB channel values.
    static func luminance(_ red: Double, _ green: Double, _ blue: Double) -> Double {
        0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// An sRGB channel value 0…255 in linear light, interpolated in a table: the backing search
    /// asks for it for thousands of blended pixels at each opacity it tries, and `pow` was most of
    /// a stamp's time. Off from `exactLinear` by less than 1e-6.
    static func linear(_ value: Double) -> Double {
        let position = min(max(value, 0), 255) * Double(tableSteps)
        let index = min(Int(position), 255 * tableSteps - 1)
        let below = linearTable[index]
        return below + (linearTable[index + 1] - below) * (position - Double(index))
    }

    static func exactLinear(_ value: Double) -> Double {
        let c = value / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    private static let tableSteps = 16
    private static let linearTable = (0...255 * tableSteps).map { exactLinear(Double($0) / Double(tableSteps)) }

    static func contrast(_ a: Double, _ b: Double) -> Double {
        (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// The photo's pixels as drawn so far, read from the drawing's target (an RGB24 image surface).
    struct Backdrop {
        let data: UnsafeMutablePointer<UInt8>
        let width: Int
        let height: Int
        let stride: Int
        /// From the coordinates drawn in to the surface's pixels: a window onto part of a photo,
        /// or a photo stored turned, is drawn in the upright photo's coordinates.
        let toSurface: cairo_matrix_t

        init?(_ cr: OpaquePointer) {
            // A transparent picture (an overlay for a live picture) has no backdrop to read.
            guard let surface = cairo_get_target(cr), cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE,
                  cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24 else { return nil }
            cairo_surface_flush(surface)
            guard let data = cairo_image_surface_get_data(surface) else { return nil }
            self.data = data
            width = Int(cairo_image_surface_get_width(surface))
            height = Int(cairo_image_surface_get_height(surface))
            stride = Int(cairo_image_surface_get_stride(surface))
            var matrix = cairo_matrix_t()
            cairo_get_matrix(cr, &matrix)
            // The device offset is the surface's, outside the context's matrix.
            var x = 0.0, y = 0.0
            cairo_surface_get_device_offset(surface, &x, &y)
            matrix.x0 += x
            matrix.y0 += y
            toSurface = matrix
        }

        /// Up to about `limit` pixels of a rectangle, evenly spread, as (red, green, blue) 0…255.
        func samples(x userX: Double, y userY: Double, width userWidth: Double, height userHeight: Double,
                     limit: Int = 3000) -> [(Double, Double, Double)] {
            // Turned by quarters at most: the rectangle stays one.
            var matrix = toSurface
            var (x, y, x2, y2) = (userX, userY, userX + userWidth, userY + userHeight)
            cairo_matrix_transform_point(&matrix, &x, &y)
            cairo_matrix_transform_point(&matrix, &x2, &y2)
            let (w, h) = (abs(x2 - x), abs(y2 - y))
            (x, y) = (min(x, x2), min(y, y2))
            let x0 = max(0, Int(x.rounded(.down))), y0 = max(0, Int(y.rounded(.down)))
            let x1 = min(width, Int((x + w).rounded(.up))), y1 = min(height, Int((y + h).rounded(.up)))
            guard x1 > x0, y1 > y0 else { return [] }
            let area = (x1 - x0) * (y1 - y0)
            let step = max(1, Int(Double(area / max(1, limit)).squareRoot().rounded(.down)))
            var result: [(Double, Double, Double)] = []
            result.reserveCapacity(area / (step * step) + 1)
            for row in Swift.stride(from: y0, to: y1, by: step) {
                let line = data.advanced(by: row * stride)
                for column in Swift.stride(from: x0, to: x1, by: step) {
                    let pixel = line.advanced(by: column * 4)
                    result.append((Double(pixel[2]), Double(pixel[1]), Double(pixel[0])))
                }
            }
            return result
        }
    }

    /// Text of one colour over backdrop pixels.
    struct Sample {
        var color: Template.Color
        var backdrop: [(Double, Double, Double)]
    }

    /// Whether every sample's text reads at `minimumContrast` (all but `tolerated` of each backdrop)
    /// once `cover` (a box or backing colour) is laid over the backdrop at `opacity`.
    static func isLegible(_ samples: [Sample], cover: Template.Color, opacity: Double) -> Bool {
        for sample in samples where !sample.backdrop.isEmpty {
            let alpha = sample.color.alpha
            let text = (sample.color.red * 255, sample.color.green * 255, sample.color.blue * 255)
            // Opaque text is drawn as its own colour whatever is under it (x·1 + y·0 is x): its
            // luminance is worked out once, not for every pixel at every opacity tried.
            let opaqueLuminance = alpha == 1 ? luminance(text.0, text.1, text.2) : nil
            // More failing pixels than this and the answer is no: the rest need not be looked at.
            let allowed = Int((tolerated * Double(sample.backdrop.count)).rounded(.down))
            var failing = 0
            for pixel in sample.backdrop {
                let under = (pixel.0 * (1 - opacity) + cover.red * 255 * opacity,
                             pixel.1 * (1 - opacity) + cover.green * 255 * opacity,
                             pixel.2 * (1 - opacity) + cover.blue * 255 * opacity)
                let drawnLuminance = opaqueLuminance ?? luminance(text.0 * alpha + under.0 * (1 - alpha),
                                                                  text.1 * alpha + under.1 * (1 - alpha),
                                                                  text.2 * alpha + under.2 * (1 - alpha))
                if contrast(drawnLuminance, luminance(under.0, under.1, under.2)) < minimumContrast {
                    failing += 1
                    if failing > allowed { return false }
                }
            }
        }
        return true
    }

    /// The least opacity from `start` up (in steps of 0.05, at most 0.95) at which `cover` makes the
    /// samples legible; nil when even that does not.
    static func opacity(for samples: [Sample], cover: Template.Color, from start: Double) -> Double? {
        var opacity = start
        while opacity <= 0.95 + 1e-9 {
            if isLegible(samples, cover: cover, opacity: opacity) { return opacity }
            opacity = (opacity + 0.05).rounded(toPlaces: 2)
        }
        return nil
    }

    /// Black behind light text, white behind dark text.
    static func backing(for colors: [Template.Color]) -> Template.Color {
        let lightest = colors.map { luminance($0.red * 255, $0.green * 255, $0.blue * 255) }.max() ?? 1
        return lightest > 0.3 ? .black : .white
    }
}

private extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let factor = pow(10, Double(places))
        return (self * factor).rounded() / factor
    }
}
