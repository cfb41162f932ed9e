extension Template {
    /// Every variable name the template's texts use, alternatives included (`{location|coords}`
    /// gives both).
    public var variableNames: Set<String> {
        Set(texts.flatMap { (try? TextTemplate($0.text))?.variableNames ?? [] })
    }

    /// What the stamp shows for each variable its texts use (`{lat:dms}` as `{lat}`), by name: the
    /// values as a stamp shows them (`Fields.prepared`), times in the style's own formats, empty ones
    /// left out. `{code}` is not among them: the verification code is derived from these.
    public func shownValues(_ fields: Fields) -> [String: String] {
        let shown = fields.prepared().fields
        var values: [String: String] = [:]
        for name in variableNames where name != "code" {
            let value = Variables.value(name: name, format: nil, fields: shown, style: timeStyle)
            if !value.isEmpty { values[name] = value }
        }
        return values
    }

    /// The fields a user can give (`--user` …) and the variables that show each.
    static let givenFields: [(name: String, variables: Set<String>)] = [
        ("user", ["user"]), ("project", ["project"]), ("location", ["location"]), ("note", ["note"]),
        ("gps", ["coords", "lat", "lon", "utm", "mgrs"]),
    ]

    /// What the style shows, in words and a fixed order: `time, zone, user, location or GPS, project`.
    public var shownFieldNames: [String] {
        let names = variableNames
        let words: [(Set<String>, String)] = [
            (["date", "time", "datetime"], "time"), (["tz"], "zone"), (["user"], "user"), (["project"], "project"),
            (["location"], "location"), (["coords", "lat", "lon", "utm", "mgrs"], "GPS"), (["altitude"], "altitude"), (["note"], "note"),
            (["camera"], "camera"), (["filename"], "file name"), (["seq"], "number"), (["code"], "code"),
        ]
        var shown = words.filter { !$0.0.isDisjoint(with: names) }.map(\.1)
        let extras = names.filter { !Variables.isBuiltIn($0) }.sorted().map { "{\($0)}" }
        shown += extras
        return shown
    }

    /// The names of the values in `given` that this template never shows (`note`, `project`, then
    /// the extra values' names, sorted), so the user can be told instead of the value silently
    /// missing. Every front end asks this, so all of them name the same fields.
    public func fieldsNotShown(_ given: Fields) -> [String] {
        let names = variableNames
        var missing: [String] = []
        let values: [String: Bool] = [
            "user": given.user?.isEmpty == false, "project": given.project?.isEmpty == false,
            "location": given.location?.isEmpty == false, "note": given.note?.isEmpty == false,
            "gps": given.latitude != nil && given.longitude != nil,
        ]
        for field in Self.givenFields where values[field.name] == true && field.variables.isDisjoint(with: names) {
            missing.append(field.name)
        }
        missing += given.extra.filter { !$0.value.isEmpty && !names.contains($0.key) }.keys.sorted()
        return missing
    }
}
