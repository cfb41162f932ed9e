internal import CCairo

extension ReportLayout {
    /// The last page: how a client checks the photos, the check page's address and its QR code, and
    /// the CA's fingerprint for other tools.
    func drawChecking(_ cr: OpaquePointer, _ checking: PhotoReport.Checking) {
        let textWidth = width - 2 * Self.margin
        var y = drawHeading(cr, ReportWords.checking, note: ReportWords.checkingNote) + 6
        for step in ReportWords.checkingSteps(organization: checking.organization) {
            let text = ReportText(context: context, step, size: 11, width: textWidth, lines: 4)
            text.draw(cr, x: Self.margin, y: y)
            y += text.size.height + 8
        }
        y += 10
        let address = ReportText(context: context, checking.url, size: 13, bold: true, width: textWidth, lines: 2)
        address.draw(cr, x: Self.margin, y: y)
        y += address.size.height + 10
        if let code = QRMatrix(checking.url) {
            // Four modules of light margin, as the QR standard asks; about 4.5 cm across.
            let side = 128.0, quiet = 4
            let module = side / Double(code.size + 2 * quiet)
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_rectangle(cr, Self.margin, y, side, side)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 0, 0, 0)
            for row in 0..<code.size {
                for column in 0..<code.size where code.isDark(x: column, y: row) {
                    cairo_rectangle(cr, Self.margin + Double(column + quiet) * module, y + Double(row + quiet) * module, module, module)
                }
            }
            cairo_fill(cr)
            y += side + 16
        }
        if let fingerprint = checking.authorityFingerprint {
            let intro = ReportText(context: context, ReportWords.checkingTools, size: 9, width: textWidth, lines: 2)
            intro.draw(cr, x: Self.margin, y: y, grey: 0.3)
            y += intro.size.height + 4
            ReportText(context: context, fingerprint, size: 8, width: textWidth, lines: 2).draw(cr, x: Self.margin, y: y)
        }
    }
}
