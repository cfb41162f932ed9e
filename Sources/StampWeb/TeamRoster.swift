import Platform
import Values

/// The people who may upload to `serve --team`, each with a token of their own: the token names
/// the photographer, so a photo sent with it is stamped and logged with that person's name. Kept
/// as JSON in one file that only its owner may read (0600), written whole and atomically.
///
/// ```json
/// {"people": [{"name": "Ana", "token": "9f…", "project": "Bridge", "projects": ["Bridge", "Tunnel"], "locked": ["user", "project"]},
///             {"name": "Li", "token": "3c…", "role": "lead"}]}
/// ```
///
/// A lead's link opens the team's day (`/team`) as well as the camera; a member's does not.
public struct TeamRoster: Sendable, Equatable {
    public struct Person: Sendable, Equatable {
        public var name: String
        public var token: String
        /// The project their photos are for (the first of `projects`); nil leaves it to the session (or the page).
        public var project: String? { projects.first }
        /// The projects their phone picks from (`team add --project A --project B`).
        public var projects: [String]
        /// The fields the page cannot change (the lead's template): of `lockable`.
        public var locked: Set<String>
        /// A team lead (`team add --lead`): sees the team's photos and adds and removes people.
        public var isLead: Bool

        public init(name: String, token: String, project: String? = nil, locked: Set<String> = [], isLead: Bool = false) {
            self.init(name: name, token: token, projects: project.map { [$0] } ?? [], locked: locked, isLead: isLead)
        }

        public init(name: String, token: String, projects: [String], locked: Set<String> = [], isLead: Bool = false) {
            self.name = name
            self.token = token
            self.projects = projects
            self.locked = locked
            self.isLead = isLead
        }
    }

    /// What `--lock` may name. The name is always the token's: `user` locks only what the page shows.
    public static let lockable = ["user", "project", "style"]

    public private(set) var people: [Person]

    public init(people: [Person] = []) { self.people = people }

    /// Why the roster cannot be read or changed.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case exists(String)
        case unknown(String)
        case badName(String)

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): return "cannot read the team file \(PathEncoding.display(path)): \(reason)"
            case .exists(let name): return "the team already has \(name)"
            case .unknown(let name): return "the team has nobody called \(name)"
            case .badName(let name):
                return "'\(PathEncoding.display(name))' cannot be a name: give 1 to 100 characters, no control characters"
                    + " and no direction marks (U+202E and the like turn the text around it)"
            }
        }
    }

    /// The person a token belongs to; compared in constant time.
    public func person(token: String) -> Person? {
        var found: Person?
        for person in people where AccessPolicy.same(person.token, token) { found = person }
        return found
    }

    /// Adds `name` with a new token.
    public mutating func add(_ name: String, project: String?, locked: Set<String>, isLead: Bool = false) throws(Problem) -> Person {
        try add(name, projects: project.map { [$0] } ?? [], locked: locked, isLead: isLead)
    }

    /// Adds `name` with a new token, picking from `projects` (the first is theirs until they pick another).
    public mutating func add(_ name: String, projects: [String], locked: Set<String>, isLead: Bool = false) throws(Problem) -> Person {
        let name = name.trimmingWhitespace
        guard Self.isUsableName(name) else { throw .badName(name) }
        guard !people.contains(where: { $0.name == name }) else { throw .exists(name) }
        let person = Person(name: name, token: AccessPolicy.newToken(), projects: projects, locked: locked, isLead: isLead)
        people.append(person)
        return person
    }

    /// Whether `name` can be a person's: 1 to 100 characters of UTF-8, none a control character or
    /// a bidirectional control (which would turn a log line or a stamp around it: "Ana\u{202E}" …).
    public static func isUsableName(_ name: String) -> Bool {
        (1...100).contains(name.count) && PathEncoding.encode(name) == Array(name.utf8)
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.isBidiControl }
    }

    public mutating func remove(_ name: String) throws(Problem) {
        guard let index = people.firstIndex(where: { $0.name == name }) else { throw .unknown(name) }
        people.remove(at: index)
    }

    /// The address `person` opens on the server at `base` (`http://192.168.1.5:8080`): a lead's
    /// goes to the team's day, a member's to the camera.
    public static func link(_ person: Person, base: String) -> String {
        base + (person.isLead ? "/team" : "/") + "?token=" + person.token
    }

    // MARK: the file

    /// `$XDG_CONFIG_HOME/stampcam/team.json` (the config folder's).
    public static func file(configFolder: String) -> String { configFolder + "/team.json" }

    /// Whether the team file can be read by other users of this machine (it holds every member's
    /// token): false when it is its owner's alone, or there is none.
    public static func isExposed(configFolder: String) -> Bool {
        guard let status = FileStatus(path: FilePath(file(configFolder: configFolder))) else { return false }
        return status.mode & 0o077 != 0
    }

    /// The roster in the config folder; an empty one when there is no file.
    public static func load(configFolder: String) throws(Problem) -> TeamRoster {
        let path = file(configFolder: configFolder)
        let bytes: [UInt8]
        do { bytes = try FileSystem.read(FilePath(path), limit: 1 << 20) } catch {
            if !FileSystem.exists(FilePath(path)) { return TeamRoster() }
            throw .unreadable(path: path, reason: "\(error)")
        }
        let document: JSONValue
        do { document = try JSONValue(parsing: bytes) } catch { throw .unreadable(path: path, reason: "\(error)") }
        guard case .object(let top) = document, case .array(let list)? = top["people"] else {
            throw .unreadable(path: path, reason: "it has no \"people\" list")
        }
        var people: [Person] = []
        for entry in list {
            guard case .object(let fields) = entry, case .string(let name)? = fields["name"], case .string(let token)? = fields["token"],
                  AccessPolicy.isUsableToken(token) else {
                throw .unreadable(path: path, reason: "each person needs a \"name\" and a \"token\" of 16 to 200 URL-safe characters")
            }
            var projects: [String] = []
            if case .array(let list)? = fields["projects"] {
                for case .string(let given) in list where !projects.contains(given) { projects.append(given) }
            } else if case .string(let given)? = fields["project"] {
                projects = [given]
            }
            var locked: Set<String> = []
            if case .array(let names)? = fields["locked"] {
                for case .string(let lock) in names where lockable.contains(lock) { locked.insert(lock) }
            }
            // Anything but "lead" (a role from a later version, a typo) is a member: never more rights than written.
            let isLead: Bool
            if case .string("lead")? = fields["role"] { isLead = true } else { isLead = false }
            people.append(Person(name: name, token: token, projects: projects, locked: locked, isLead: isLead))
        }
        return TeamRoster(people: people)
    }

    /// Writes the roster into the config folder (0600), replacing what was there in one step.
    public func save(configFolder: String) throws(Problem) {
        let path = Self.file(configFolder: configFolder)
        struct Entry: Encodable {
            let name: String
            let token: String
            let project: String?
            let projects: [String]?
            let locked: [String]
            let role: String?
        }
        struct Document: Encodable { let people: [Entry] }
        let document = Document(people: people.map {
            Entry(name: $0.name, token: $0.token, project: $0.project, projects: $0.projects.count > 1 ? $0.projects : nil,
                  locked: $0.locked.sorted(), role: $0.isLead ? "lead" : nil)
        })
        var bytes = WebJSON.bytes(document)
        bytes.append(0x0A)
        let temp = FilePath(path + ".new")
        do {
            try FileSystem.makeFolders(FilePath(configFolder), mode: 0o700)
            _ = FileSystem.remove(temp)
            try FileSystem.createNew(temp, bytes, mode: 0o600)
            try FileSystem.rename(temp, to: FilePath(path))
        } catch {
            _ = FileSystem.remove(temp)
            throw .unreadable(path: path, reason: "cannot write it: \(error.reason)")
        }
    }
}
