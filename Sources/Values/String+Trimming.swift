extension StringProtocol {
    /// The text without the whitespace at either end: spaces, tabs, line breaks and the other
    /// Unicode spaces (`Character.isWhitespace`).
    public var trimmingWhitespace: String {
        var slice = self[...]
        while slice.first?.isWhitespace == true { slice = slice.dropFirst() }
        while slice.last?.isWhitespace == true { slice = slice.dropLast() }
        return String(slice)
    }
}
