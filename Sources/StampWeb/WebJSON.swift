import Values

/// The JSON documents the server sends, as `Encodable` values written by `JSONOutput`. A value the
/// page reads but that is absent (no message, no photo saved yet) is written as null (`@Null`), not
/// left out.
enum WebJSON {
    /// The document as bytes. Every number in these documents is finite, so encoding cannot fail;
    /// if it ever did, the page gets an empty object rather than half a document.
    static func bytes<Document: Encodable>(_ document: Document) -> [UInt8] {
        (try? JSONOutput.encoded(document)) ?? Array("{}".utf8)
    }

    /// `{"error": "…"}`: why a request was refused.
    struct Refusal: Encodable {
        let error: String
    }

    /// A camera note or warning for the page to show once.
    struct Notice: Encodable {
        let text: String
        let warning: Bool
    }

    /// A style in the pick list.
    struct Style: Encodable {
        let index: Int
        let id: String
        let name: String
    }

    /// The page's words in one language: its tag for `<html lang>`, `ltr` or `rtl`, the words by id.
    struct Words: Encodable {
        let lang: String
        let dir: String
        let words: [String: String]
    }

    /// A photo this session saved: its file name and where the page gets it and its thumbnail.
    struct Shot: Encodable {
        let name: String
        let url: String
        let thumbnail: String
    }

    /// What the page shows (`/api/state` and the `state` events).
    struct State: Encodable {
        struct CurrentStyle: Encodable {
            let index: Int
            let id: String
            let name: String
            let count: Int
            /// The values given that this style does not show (`user`, `note` …).
            let notShown: [String]
        }

        struct Flash: Encodable {
            let mode: String
            let modes: [String]
        }

        struct Zoom: Encodable {
            let factor: Double
            let max: Double
        }

        struct Camera: Encodable {
            let name: String
            let index: Int
            let count: Int
            let width: Int
            let height: Int
        }

        struct Fields: Encodable {
            @Null var user: String?
            @Null var project: String?
            @Null var location: String?
            @Null var note: String?
        }

        struct Control: Encodable {
            /// Who controls the camera (a label such as "Chrome on Android (192.168.1.23)"); nil when free.
            @Null var holder: String?
            let mine: Bool
            let free: Bool
        }

        /// Never goes down: a page drops a document older than one it has shown.
        let version: Int
        let phase: String
        @Null var message: String?
        let error: Bool
        let style: CurrentStyle
        let flash: Flash
        let zoom: Zoom
        let camera: Camera
        let fields: Fields
        let projects: [String]
        let shots: Int
        let unsaved: Bool
        let folder: String
        let control: Control
        @Null var lastSaved: Shot?
    }

    /// A photo uploaded (`POST /api/photos`): under review (`id`, `preview`) or saved (`url`), with
    /// the values it was stamped with.
    struct Uploaded: Encodable {
        @Null var id: String?
        let name: String
        let saved: Bool
        @Null var preview: String?
        /// The style it is stamped in (its id).
        let style: String
        @Null var url: String?
        /// The server's clock when it arrived; the phone's own time (its EXIF) beside it.
        let time: String
        let timeSource: String
        @Null var phoneTime: String?
        @Null var user: String?
        @Null var project: String?
        @Null var site: String?
        @Null var latitude: Double?
        @Null var longitude: Double?
        /// The verification code its stamp shows.
        @Null var code: String?
        let notes: [String]
    }

    /// A phone's own values (`/api/me`): who it shoots as, for which project, where, in which style.
    struct Me: Encodable {
        @Null var name: String?
        /// A team member's name is their link's.
        let nameLocked: Bool
        @Null var project: String?
        /// The projects to pick from (the person's from `team add`, else the server's list).
        let projects: [String]
        let projectLocked: Bool
        @Null var note: String?
        @Null var location: String?
        let style: Style
        let styles: [Style]
        let styleLocked: Bool
        /// Whether this page may open the server's own camera (`/camera`).
        let serverCamera: Bool
        /// The server's clock now, for the page to follow.
        let serverTime: String
        /// Whether the server takes photos from phones at all.
        let uploads: Bool
        /// The fingerprint of the certificate authority to install (`/ca`), with HTTPS.
        @Null var authority: String?
    }

    /// An upload used (its name and where it is) or retaken (nulls).
    struct Used: Encodable {
        @Null var name: String?
        @Null var url: String?
        let warnings: [String]
    }

    /// An optional the page reads as null when absent (a synthesized `Encodable` would leave its key out).
    @propertyWrapper
    struct Null<Value: Encodable>: Encodable {
        var wrappedValue: Value?

        init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(wrappedValue)
        }
    }
}
