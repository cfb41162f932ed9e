extension String {
    /// Without the spaces and tabs at either end (and line breaks at the end).
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" || last == "\n" { text.removeLast() }
        return String(text)
    }
}
