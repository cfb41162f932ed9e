extension Template {
    /// Each variable this style's texts use, and the text it shows for `fields` (before a stamp
    /// cuts it to fit): what a signed record says the stamp shows.
    public func shownValues(_ fields: Fields) -> [String: String] {
        var values: [String: String] = [:]
        for name in variableNames {
            let value = Variables.value(name: name, format: nil, fields: fields, style: timeStyle)
            if !value.isEmpty { values[name] = value }
        }
        return values
    }
}
