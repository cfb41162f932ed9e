extension Watermarker {
    /// The side of `planSVG`'s square, in its own units: its numbers (the report's 7.5 pt) read at a
    /// phone's width and larger.
    public static let planSide = 240.0

    /// The report's location plan alone, as an SVG square for a page to show at any size: the
    /// sites, each photo's number at its position, north and a scale bar, drawn by the report's code.
    public func planSVG(_ plan: PhotoReport.Plan) throws(ReportError) -> [UInt8] {
        let side = Self.planSide
        let drawing = try SVGDrawing(width: side, height: side)
        let layout = ReportLayout(width: side, height: side, perPage: 2, context: text.context)
        return try drawing.draw { cr in
            text.prepare(for: cr)
            layout.drawPlan(cr, plan, frame: (x: 0.5, y: 0.5, width: side - 1, height: side - 1), inset: 52)
        }
    }
}
