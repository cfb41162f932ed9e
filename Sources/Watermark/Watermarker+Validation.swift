import Templates
import Values

extension Watermarker {
    /// Every problem with `template`, errors and warnings, with the file and JSON path: the one check
    /// for `templates check` and for every use of a template (`stamp` refuses a template with errors).
    ///
    /// Errors: texts that are not valid template text (braces, formats, length, variables inside
    /// tags, tags nested more than `TextTemplate.maxMarkupDepth` deep); unknown variables — a name
    /// that is neither built in nor in `variables` (the names given values); markup
    /// Pango rejects (with Pango's reason); markup outside stampcam's limits (absolute font sizes,
    /// text scaled beyond 0.002…0.5 of the short side, `rise`/`letter_spacing` beyond ±1000 pixels,
    /// `line_height` above 3); anything Pango logs while laying the text out; a logo that cannot be
    /// used. Warnings: characters in the template's own text that no configured font can show.
    public func validate(_ template: Template, variables: Set<String> = []) -> [TemplateProblem] {
        problems(in: template, variables: variables, warnings: true, logos: true)
    }

    func problems(in template: Template, variables: Set<String>?, warnings: Bool, logos checkLogos: Bool) -> [TemplateProblem] {
        var problems: [TemplateProblem] = []
        func add(_ severity: TemplateProblem.Severity, _ path: String, _ problem: String, missingValue: String? = nil) {
            problems.append(TemplateProblem(severity, file: template.file, path: path, problem: problem, missingValue: missingValue))
        }
        var familiesChecked: Set<String> = []
        for text in template.texts {
            // Pango takes a list of families, separated by commas; each is looked up.
            for family in text.font.family.split(separator: ",").map({ $0.trimmingWhitespace }) where warnings && !family.isEmpty
                && familiesChecked.insert(family.lowercased()).inserted && !self.text.hasFontFamily(family) {
                add(.warning, text.path + ".font.family", Self.missingFamilyText(family))
            }
            for problem in TextTemplate.problems(in: text.text, variables: variables) {
                add(.error, text.path, problem.description, missingValue: problem.missingValue)
            }
            // Pango sees the text only once its own structure is right.
            guard TextTemplate.problems(in: text.text, variables: nil).isEmpty, let parsed = try? TextTemplate(text.text) else {
                continue
            }
            let skeleton = parsed.skeleton()
            let issues = markupIssues(skeleton, fontSize: text.font.size)
            for issue in issues { add(.error, text.path, issue.text) }
            guard issues.isEmpty, warnings else { continue }
            let (missing, messages) = LibraryLog.shared.collecting {
                TextLayout(context: self.text.context, markup: skeleton, font: text.font,
                           pixelSize: 32, align: .left,
                           overflow: .ellipsis).missingCharacters
            }
            for message in messages { add(.error, text.path, "Pango reported: \(message)") }
            if !missing.isEmpty { add(.warning, text.path, Self.missingGlyphsText(missing)) }
        }
        if checkLogos {
            for (index, block) in template.blocks.enumerated() {
                guard let logo = block.logo, !logo.qr else { continue }
                do {
                    _ = try logos.size(of: logoPath(logo, in: template))
                } catch {
                    add(.error, "blocks[\(index)].logo.file", error.description)
                }
            }
        }
        return problems
    }

    /// A font family that matches no installed font.
    static func missingFamilyText(_ family: String) -> String {
        "no installed font has the family '\(family)', so its text is drawn in the fallback font; "
            + "install it, put its files beside fonts/fonts.conf, or name another family"
    }

        /// Markup problems of one skeleton, Pango's log messages among them: parsing and measuring are
    /// where Pango would complain about a template's markup.
    private func markupIssues(_ skeleton: String, fontSize: Double) -> [MarkupCheck.Issue] {
        let (issues, messages) = LibraryLog.shared.collecting { MarkupCheck.issues(in: skeleton, fontSize: fontSize) }
        return issues + messages.map { .limit("Pango reported: \($0)") }
    }
}
