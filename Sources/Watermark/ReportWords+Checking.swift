extension ReportWords {
    public static let checking = "How to check these photos"
    public static let checkingNote = "Each photo carries a signature: any change to the picture or its data after it was signed shows."

    /// The steps on the check page, for `organization`'s photos at `url`.
    public static func checkingSteps(organization: String) -> [String] {
        [
            "1. Open the check page below (or scan its QR code) in a browser.",
            "2. Choose a photo file you received from \(organization): the page says whether it is unchanged since a camera of \(organization) signed it. The photo is checked on the page's server and not kept.",
            "3. For a printed photo, type the code printed on it: the page says whether the photo log of \(organization) holds a photo with that code, and shows a small copy to compare.",
        ]
    }

    public static let checkingTools = "To check with other C2PA tools, trust only the CA certificate whose SHA-256 fingerprint is:"
}
