import Platform

/// Every word a photo report shows, in one place, said in `Language.current` when asked for: make a
/// report (build and draw it) inside `Language.speaking` and it comes out in that language.
public enum ReportWords {
    public static var reportTitle: String { Lp("report", "Photo report") }
    public static var index: String { Lp("report", "Index of photos") }
    // TRANSLATORS: the heading of the index's column of photo numbers.
    public static var number: String { Lp("report", "No.") }
    public static var time: String { Lp("report", "Time") }
    public static var who: String { Lp("report", "Who") }
    public static var place: String { Lp("report", "Where") }
    public static var note: String { Lp("report", "Note") }
    public static var photo: String { Lp("report", "Photo") }
    public static var project: String { Lp("report", "Project") }
    public static var projects: String { Lp("report", "Projects") }
    public static var site: String { Lp("report", "Site") }
    public static var sites: String { Lp("report", "Sites") }
    // TRANSLATORS: on the cover: from the first photo's time to the last's.
    public static var period: String { Lp("report", "Period") }
    public static var author: String { Lp("report", "Author") }
    // TRANSLATORS: on the cover: the people who took the photos.
    public static var people: String { Lp("report", "Photos by") }
    // TRANSLATORS: on the cover: how many photos the report holds.
    public static var photos: String { Lp("report", "Photos") }
    // TRANSLATORS: on the cover: when the report was made, and by which program.
    public static var generated: String { Lp("report", "Generated") }
    public static var coordinates: String { Lp("report", "Coordinates") }
    public static var file: String { Lp("report", "File") }
    public static var code: String { Lp("report", "Verification code") }
    /// The same in a photo's details, whose labels are one short word.
    public static var codeLabel: String { Lp("report", "Code") }
    public static var plan: String { Lp("report", "Location plan") }
    public static var planNote: String {
        Lp("report", "Photo positions drawn to scale; the numbers are the photos' numbers in the index.")
    }
    // TRANSLATORS: the letter on the location plan's north arrow.
    public static var north: String { Lp("report", "N") }
    public static var signOff: String { Lp("report", "Sign-off") }
    public static var signOffNote: String { Lp("report", "The undersigned have reviewed the photos in this report.") }
    public static var date: String { Lp("report", "Date") }
    public static var signature: String { Lp("report", "Signature") }

    public static func page(_ page: Int, of pages: Int) -> String { L("Page {1} of {2}", page, pages) }
    // TRANSLATORS: the report's title when its photos are of one project ({1}).
    public static func titled(_ project: String) -> String { L("Photo report: {1}", project) }
    // TRANSLATORS: every page's footer: {1} when (date and time), {2} the program ("stampcam 0.2.0").
    public static func generated(_ time: String, by software: String) -> String { L("Generated {1} by {2}", time, software) }
    // TRANSLATORS: after a list of the first ten names: "Li Wei, Ana García … and 3 more".
    public static func more(_ count: Int) -> String { " " + Ln("and {1} more", "and {1} more", count, count) }
    // TRANSLATORS: a photo's number among the report's photos: "12 of 40".
    public static func numbered(_ number: Int, of count: Int) -> String { L("{1} of {2}", number, count) }
    /// `text` (a time, a zone, a code) kept left to right in a right-to-left language's line, where
    /// the bidi algorithm would move the `+` of `+01:00` to the other end; as it is in any other.
    public static func leftToRight(_ text: String) -> String {
        Language.current.rightToLeft ? "\u{2066}" + text + "\u{2069}" : text
    }

    /// What the PDF is about: "12 photos, 2026-11-23 – 2026-11-26".
    public static func subject(photos count: Int, period: String) -> String {
        Ln("{1} photo", "{1} photos", count, count) + (period.isEmpty ? "" : ", " + period)
    }
}
