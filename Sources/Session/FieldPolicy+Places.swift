import Templates

extension FieldPolicy {
    /// Forgets the place names unless one of `styles` or the file name `name` shows `{place}`:
    /// looking one up loads the gazetteer's index, which a run that never shows a place should not
    /// pay for. True when `chosen` (the style stamped first) or `name` shows `{place}` and no place
    /// names are installed: it stays empty, which the user should hear.
    @discardableResult
    public mutating func keepPlaceNames(ifShownBy styles: [Template], chosen: Template, name: TextTemplate? = nil) -> Bool {
        func shown(_ template: Template) -> Bool {
            template.texts.contains { (try? TextTemplate($0.text))?.variableNames.contains("place") ?? false }
        }
        let nameShows = name?.variableNames.contains("place") ?? false
        guard nameShows || styles.contains(where: shown) || shown(chosen) else {
            whereabouts.places = nil
            return false
        }
        guard nameShows || shown(chosen), let finder = whereabouts.places else { return false }
        return finder.table == nil
    }

    /// Works out no grid references unless one of `styles` or the file name `name` shows `{utm}` or
    /// `{mgrs}`: that opens PROJ, which a run that never shows one should not load.
    public mutating func keepGridReferences(ifShownBy styles: [Template], name: TextTemplate? = nil) {
        let grid: Set<String> = ["utm", "mgrs"]
        whereabouts.gridReferences = !grid.isDisjoint(with: name?.variableNames ?? [])
            || styles.contains { !$0.variableNames.isDisjoint(with: grid) }
    }
}
