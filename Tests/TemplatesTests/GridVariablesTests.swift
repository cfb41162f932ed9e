import Templates
import Testing
import Values

/// How `{utm}` and `{mgrs}` print the grid position the fields carry.
struct GridVariablesTests {
    static var fields: Fields {
        var fields = Fields(latitude: 31.2, longitude: 121.4)
        fields.grid = GridPosition(zone: 51, isNorth: true, easting: 354633.6, northing: 3456140.7, latitude: 31.2)
        return fields
    }

    @Test(arguments: [
        ("{utm}", "51N 354634 3456141"), ("{mgrs}", "51RUQ 54633 56140"), ("{mgrs:5}", "51RUQ 54633 56140"),
        ("{mgrs:3}", "51RUQ 546 561"), ("{mgrs:0}", "51RUQ"), ("MGRS {mgrs:1}", "MGRS 51RUQ 5 5"),
    ])
    func values(_ text: String, _ expected: String) throws {
        #expect(try TextTemplate(text).render(Self.fields, escape: { $0 }) == expected)
    }

    /// Near the poles (no grid position) the line is left out rather than showing a wrong value.
    @Test func emptyWithoutGrid() throws {
        #expect(try TextTemplate("UTM {utm}").render(Fields(latitude: 85, longitude: 10), escape: { $0 }) == nil)
        let polar = Fields(latitude: 85, longitude: 10)
        #expect(try TextTemplate("{mgrs|coords}").render(polar, escape: { $0 }) == TextTemplate("{coords}").render(polar, escape: { $0 }))
    }

    @Test func formatChecked() {
        #expect(TextTemplate.problems(in: "{mgrs:6}", variables: []).map(\.description)
            == ["'{mgrs:6}': format must be digits of each of easting and northing, 0 to 5"])
        #expect(TextTemplate.problems(in: "{mgrs:}", variables: []).count == 1)
        #expect(TextTemplate.problems(in: "{utm:5}", variables: []).map(\.description) == ["'{utm:5}': utm takes no format"])
        #expect(TextTemplate.problems(in: "{utm} {mgrs} {mgrs:0} {mgrs:4}", variables: []).isEmpty)
    }

    /// A given position's grid goes with it when fields are merged, never another position's.
    @Test func mergedWithPosition() {
        let given = Fields(latitude: 1, longitude: 2)
        #expect(given.filled(from: Self.fields).grid == nil)
        #expect(Fields().filled(from: Self.fields).grid == Self.fields.grid)
    }
}
