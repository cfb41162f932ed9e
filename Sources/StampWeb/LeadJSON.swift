import Catalog
import Library
import Platform
import Provenance
import Session
import Values

/// The JSON documents of the lead's page (`/api/team/…`), written by `WebJSON.bytes`.
enum LeadJSON {
    /// A day of the team's photos (`/api/team/day`).
    struct Day: Encodable {
        let day: String
        let today: String
        /// The day's zone, as an offset at its noon.
        let zone: String
        /// Whether the server logs its photos at all (without a log the page has nothing to show).
        let logged: Bool
        /// Photos of the whole day; those listed; those the filter lets through beyond the list.
        let total: Int
        let leftOut: Int
        let unreadable: Int
        let people: [String]
        let sites: [String]
        let projects: [String]
        let photos: [Photo]
        /// The location plan's address, or null when no photo has a position (or they are too far apart).
        @WebJSON.Null var plan: String?
        /// The filter as a query (`day=…&person=…`), for the downloads.
        let query: String
    }

    /// One photo in the timeline: numbered as in the report and on the plan.
    struct Photo: Encodable {
        let id: String
        let number: Int
        /// `14:03`, in the photo's own zone as stamped.
        let time: String
        /// Minutes since the day's midnight, for the timeline's scale.
        let minute: Int
        @WebJSON.Null var user: String?
        @WebJSON.Null var project: String?
        @WebJSON.Null var site: String?
        @WebJSON.Null var place: String?
        @WebJSON.Null var note: String?
        @WebJSON.Null var code: String?
        let located: Bool
        /// The file's name (never its folder).
        let name: String
        /// `ok`, or what is known to be wrong: `missing`, `changed`.
        let file: String
        let thumbnail: String
    }

    /// A photo opened (`/api/team/photo`): its stamp values, its file and its verdict.
    struct Opened: Encodable {
        let id: String
        let name: String
        let file: String
        @WebJSON.Null var problem: String?
        @WebJSON.Null var image: String?
        let rows: [Row]
        @WebJSON.Null var verification: Verdict?
    }

    struct Row: Encodable {
        let label: String
        let value: String
    }

    /// What `stampcam verify` says of the file: its outcome (`valid`, `untrusted`, `expired`,
    /// `noCredentials`, `changed`, `invalid`) and the checks behind it.
    struct Verdict: Encodable {
        let outcome: String
        @WebJSON.Null var problem: String?
        let credentials: Bool
        let signatureValid: Bool
        let unchanged: Bool
        let trusted: Bool
        @WebJSON.Null var codeMatches: Bool?
        @WebJSON.Null var signer: String?
        @WebJSON.Null var generator: String?

        init(_ verification: Verification) {
            outcome = verification.outcome.name
            problem = verification.problem
            credentials = verification.hasCredentials
            signatureValid = verification.signatureValid
            unchanged = verification.bindingHolds
            trusted = verification.trusted
            codeMatches = verification.codeMatches
            signer = verification.signer.map { PathEncoding.display($0.subject) }
            generator = verification.generator.map(PathEncoding.display)
        }
    }

    /// A person of the team, with the link that lets them in.
    struct Person: Encodable {
        let name: String
        @WebJSON.Null var project: String?
        let lead: Bool
        let locked: [String]
        let link: String
        /// The link as a QR code (SVG).
        let qr: String
        /// The person asking.
        let you: Bool
    }

    struct People: Encodable {
        let people: [Person]
        /// Whether people can be added here (`serve --team`).
        let team: Bool
    }

    /// A file state as the page names it.
    static func fileState(_ problem: PhotoThumbnails.FileProblem?) -> String {
        switch problem {
        case .missing?: return "missing"
        case .changed?: return "changed"
        case .unreadable?: return "unreadable"
        case nil: return "ok"
        }
    }
}
