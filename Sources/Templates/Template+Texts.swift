extension Template {
    /// One text of a template with where it is: a block's title, one of its lines or aside lines.
    public struct Text: Sendable, Equatable {
        /// The JSON path: `blocks[0].title.text`, `blocks[0].lines[2]`, `blocks[1].aside[0]`.
        public var path: String
        public var text: String
        public var font: Font
    }

    /// Every text of the template, block by block: title, lines, then aside.
    public var texts: [Text] {
        blocks.enumerated().flatMap { index, block in
            let prefix = "blocks[\(index)]"
            let title = block.title.map { [Text(path: prefix + ".title.text", text: $0.text, font: $0.font)] } ?? []
            return title
                + block.lines.enumerated().map { Text(path: prefix + ".lines[\($0)]", text: $1.text, font: $1.font) }
                + block.aside.enumerated().map { Text(path: prefix + ".aside[\($0)]", text: $1.text, font: $1.font) }
        }
    }

    /// The problems `TextTemplate.problems` finds in each text, as errors naming this template's file
    /// and the text's path. `variables`: the names given values besides the built-in ones; nil skips
    /// the check for unknown names.
    public func textProblems(variables: Set<String>?) -> [TemplateProblem] {
        texts.flatMap { text in
            TextTemplate.problems(in: text.text, variables: variables).map {
                TemplateProblem(.error, file: file, path: text.path, problem: $0.description, missingValue: $0.missingValue)
            }
        }
    }
}
