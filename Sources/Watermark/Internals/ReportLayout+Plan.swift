internal import CCairo
internal import CPango

#if canImport(Glibc)
import Glibc
#endif

extension ReportLayout {
    /// The location plan: the sites' outlines and each photo's number at its position, to scale
    /// (metres east and north as the page's right and up), with a north arrow and a scale bar.
    func drawPlan(_ cr: OpaquePointer, _ plan: PhotoReport.Plan) {
        let top = drawHeading(cr, ReportWords.plan, note: ReportWords.planNote)
        drawPlan(cr, plan, frame: (x: Self.margin, y: top, width: width - 2 * Self.margin, height: height - Self.margin - Self.band - 8 - top),
                 inset: 56)
    }

    /// The plan in `frame`, its points kept `inset` from the frame's edges: what the report's page
    /// and the lead's page (`Watermarker.planSVG`) show.
    func drawPlan(_ cr: OpaquePointer, _ plan: PhotoReport.Plan, frame: (x: Double, y: Double, width: Double, height: Double), inset: Double) {
        cairo_set_source_rgb(cr, 0.6, 0.6, 0.6)
        cairo_set_line_width(cr, 0.5)
        cairo_rectangle(cr, frame.x, frame.y, frame.width, frame.height)
        cairo_stroke(cr)
        let points = plan.areas.flatMap { $0.rings.flatMap { $0 } } + plan.photos.map(\.point)
        guard let scale = PlanScale(points, width: frame.width, height: frame.height, inset: inset) else { return }
        func place(_ point: PhotoReport.Plan.Point) -> (x: Double, y: Double) {
            let at = scale.page(point)
            return (frame.x + at.x, frame.y + at.y)
        }
        cairo_save(cr)
        cairo_rectangle(cr, frame.x, frame.y, frame.width, frame.height)
        cairo_clip(cr)
        // Sites: a light fill and an outline (holes stay open: even-odd), the name at the middle.
        for area in plan.areas {
            cairo_new_path(cr)
            for ring in area.rings where !ring.isEmpty {
                let start = place(ring[0])
                cairo_move_to(cr, start.x, start.y)
                for point in ring.dropFirst() {
                    let at = place(point)
                    cairo_line_to(cr, at.x, at.y)
                }
                cairo_close_path(cr)
            }
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            cairo_set_source_rgb(cr, 0.88, 0.93, 0.97)
            cairo_fill_preserve(cr)
            cairo_set_source_rgb(cr, 0.25, 0.45, 0.65)
            cairo_set_line_width(cr, 1.2)
            cairo_stroke(cr)
        }
        for area in plan.areas {
            guard let ring = area.rings.first, !ring.isEmpty else { continue }
            let middle = place(PhotoReport.Plan.Point(east: ring.map(\.east).reduce(0, +) / Double(ring.count),
                                                      north: ring.map(\.north).reduce(0, +) / Double(ring.count)))
            let name = ReportText(context: context, area.name, size: 10, bold: true, width: 160, lines: 2, align: PANGO_ALIGN_CENTER)
            let size = name.size
            name.draw(cr, x: middle.x - 80, y: middle.y - size.height / 2, grey: 0.2)
        }
        // Photos: a dot at the position, the number beside it; photos taken on one spot share a dot
        // and list their numbers, so every number of the index is seen.
        var spots: [(x: Double, y: Double, numbers: [Int])] = []
        for mark in plan.photos {
            let at = place(mark.point)
            if let index = spots.firstIndex(where: { abs($0.x - at.x) < 4 && abs($0.y - at.y) < 4 }) {
                spots[index].numbers.append(mark.number)
            } else {
                spots.append((at.x, at.y, [mark.number]))
            }
        }
        for spot in spots {
            cairo_set_source_rgb(cr, 0.75, 0.1, 0.1)
            cairo_new_path(cr)  // the text drawn last left its position: no line from there
            cairo_arc(cr, spot.x, spot.y, 2.5, 0, 2 * Double.pi)
            cairo_fill(cr)
            drawBadge(cr, PlanScale.ranges(spot.numbers), x: spot.x + 3, y: spot.y - 13, size: 7.5)
        }
        cairo_restore(cr)
        drawNorthArrow(cr, x: frame.x + frame.width - 30, y: frame.y + 14)
        drawScaleBar(cr, metres: PlanScale.roundLength(below: frame.width / 4 / scale.pointsPerMetre),
                     pointsPerMetre: scale.pointsPerMetre, x: frame.x + 14, y: frame.y + frame.height - 18)
    }

    /// An arrow pointing up (north: the plan is drawn north up) with "N" under its tip.
    func drawNorthArrow(_ cr: OpaquePointer, x: Double, y: Double) {
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1)
        cairo_move_to(cr, x, y)
        cairo_line_to(cr, x + 8, y + 26)
        cairo_line_to(cr, x, y + 20)
        cairo_line_to(cr, x - 8, y + 26)
        cairo_close_path(cr)
        cairo_fill(cr)
        let letter = ReportText(context: context, ReportWords.north, size: 10, bold: true)
        letter.draw(cr, x: x - letter.size.width / 2, y: y + 27)
    }

    /// A bar `metres` long, in two halves, labelled with its length.
    func drawScaleBar(_ cr: OpaquePointer, metres: Double, pointsPerMetre: Double, x: Double, y: Double) {
        let length = metres * pointsPerMetre
        cairo_set_line_width(cr, 0.6)
        for half in 0..<2 {
            cairo_rectangle(cr, x + Double(half) * length / 2, y, length / 2, 4)
            cairo_set_source_rgb(cr, half == 0 ? 0.1 : 1, half == 0 ? 0.1 : 1, half == 0 ? 0.1 : 1)
            cairo_fill_preserve(cr)
            cairo_set_source_rgb(cr, 0.1, 0.1, 0.1)
            cairo_stroke(cr)
        }
        let label = ReportText(context: context, PlanScale.lengthText(metres), size: 8)
        label.draw(cr, x: x + length + 5, y: y - 3)
        ReportText(context: context, "0", size: 8).draw(cr, x: x - 2, y: y - 12)
    }
}

/// Metres on the plan to points on the page: one scale for both directions (true to scale), the
/// points' extent centred in the frame.
struct PlanScale {
    let pointsPerMetre: Double
    let centre: (east: Double, north: Double)
    let frame: (width: Double, height: Double)

    /// The smallest extent drawn, metres: a single photo, or several on one spot, still get a plan.
    static let minimumSpan = 50.0

    init?(_ points: [PhotoReport.Plan.Point], width: Double, height: Double, inset: Double) {
        let easts = points.map(\.east).filter(\.isFinite), norths = points.map(\.north).filter(\.isFinite)
        guard let west = easts.min(), let east = easts.max(), let south = norths.min(), let north = norths.max() else { return nil }
        let span = (east: max(east - west, Self.minimumSpan), north: max(north - south, Self.minimumSpan))
        pointsPerMetre = min((width - 2 * inset) / span.east, (height - 2 * inset) / span.north)
        centre = ((west + east) / 2, (south + north) / 2)
        frame = (width, height)
    }

    /// A point's place in the frame (y down).
    func page(_ point: PhotoReport.Plan.Point) -> (x: Double, y: Double) {
        (frame.width / 2 + (point.east - centre.east) * pointsPerMetre, frame.height / 2 - (point.north - centre.north) * pointsPerMetre)
    }

    /// The largest of 1, 2 or 5 times a power of ten that is at most `metres` (at least 1 m).
    static func roundLength(below metres: Double) -> Double {
        guard metres.isFinite, metres > 1 else { return 1 }
        let power = pow(10, floor(log10(metres)))
        return [5.0, 2, 1].map { $0 * power }.first { $0 <= metres } ?? power
    }

    /// Numbers as runs: "1–3, 5, 7–8".
    static func ranges(_ numbers: [Int]) -> String {
        var runs: [(first: Int, last: Int)] = []
        for number in numbers.sorted() {
            if let last = runs.last, number == last.last + 1 { runs[runs.count - 1].last = number } else { runs.append((number, number)) }
        }
        return runs.map { $0.first == $0.last ? String($0.first) : "\($0.first)–\($0.last)" }.joined(separator: ", ")
    }

    /// "50 m", "2 km".
    static func lengthText(_ metres: Double) -> String {
        metres >= 1000 ? "\(Int(metres / 1000)) km" : "\(Int(metres)) m"
    }
}
