/// Every word a photo report shows, in one place (so they can be translated in one place).
public enum ReportWords {
    public static let reportTitle = "Photo report"
    public static let index = "Index of photos"
    public static let number = "No."
    public static let time = "Time"
    public static let who = "Who"
    public static let place = "Where"
    public static let note = "Note"
    public static let photo = "Photo"
    public static let project = "Project"
    public static let projects = "Projects"
    public static let site = "Site"
    public static let sites = "Sites"
    public static let period = "Period"
    public static let author = "Author"
    public static let people = "Photos by"
    public static let photos = "Photos"
    public static let generated = "Generated"
    public static let coordinates = "Coordinates"
    public static let file = "File"
    public static let code = "Verification code"
    /// The same in a photo's details, whose labels are one short word.
    public static let codeLabel = "Code"
    public static let plan = "Location plan"
    public static let planNote = "Photo positions drawn to scale; the numbers are the photos' numbers in the index."
    public static let north = "N"
    public static let signOff = "Sign-off"
    public static let signOffNote = "The undersigned have reviewed the photos in this report."
    public static let name = "Name"
    public static let role = "Role"
    public static let date = "Date"
    public static let signature = "Signature"

    public static func page(_ page: Int, of pages: Int) -> String { "Page \(page) of \(pages)" }
    public static func titled(_ project: String) -> String { "\(reportTitle): \(project)" }
    public static func generated(_ time: String, by software: String) -> String { "\(generated) \(time) by \(software)" }
    public static func more(_ count: Int) -> String { " and \(count) more" }
    /// A photo's number among the report's: "12 of 40".
    public static func numbered(_ number: Int, of count: Int) -> String { "\(number) of \(count)" }
    /// "12 photos, 2026-11-23 – 2026-11-26".
    public static func subject(photos count: Int, period: String) -> String {
        "\(count) \(count == 1 ? "photo" : "photos")" + (period.isEmpty ? "" : ", " + period)
    }
}
