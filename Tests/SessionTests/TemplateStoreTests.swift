import Library
import Platform
import Testing
import TestSupport
import Templates
@testable import Session

/// Resolving one style reads each file only for its id, yet must choose exactly what the whole
/// store would: later layers and later files win, broken files are passed over.
@Suite struct TemplateStoreTests {
    static let builtIn = TestFiles.packageRoot + "/templates"

    static func template(id: String, name: String) -> [UInt8] {
        Array(#"{"version": 1, "id": "\#(id)", "name": "\#(name)", "blocks": [{"lines": ["{user}"]}]}"#.utf8)
    }

    /// The choice resolved both ways; they must agree.
    static func both(_ choice: String?, user: String, extra: [String] = []) throws -> (whole: Template, one: Template) {
        let whole = try TemplateStore(builtIn: builtIn, user: user, extraFolders: extra).resolve(choice)
        let one = try TemplateStore.resolve(choice, builtIn: builtIn, user: user, extraFolders: extra)
        return (whole, one)
    }

    @Test("built-in styles, and the default, resolve to the same template either way")
    func builtInStyles() throws {
        let ids = try TemplateStore(builtIn: Self.builtIn, user: "/nonexistent", extraFolders: []).catalog.entries.map(\.template.id)
        #expect(ids.count >= 6)
        for id in ids + [nil] as [String?] {
            let (whole, one) = try Self.both(id, user: "/nonexistent")
            #expect(whole == one, "\(id ?? "default")")
        }
    }

    @Test("the user's file overrides a built-in style, --template-dir the user's; a broken later file is passed over")
    func overrides() throws {
        let user = try TestFiles.temporaryFolder("user-templates"), extra = try TestFiles.temporaryFolder("extra-templates")
        try TestFiles.write(Self.template(id: "classic", name: "Mine"), to: user + "/mine.json")
        var (whole, one) = try Self.both("classic", user: user)
        #expect(one.name == "Mine" && whole == one)
        try TestFiles.write(Self.template(id: "classic", name: "Project's"), to: extra + "/a.json")
        (whole, one) = try Self.both("classic", user: user, extra: [extra])
        #expect(one.name == "Project's" && whole == one)
        // Within a folder the later name wins; one that is not a valid template does not.
        try TestFiles.write(Self.template(id: "classic", name: "Later"), to: extra + "/b.json")
        try TestFiles.write(Array(#"{"version": 1, "id": "classic", "blocks": "not a list"}"#.utf8), to: extra + "/c.json")
        (whole, one) = try Self.both("classic", user: user, extra: [extra])
        #expect(one.name == "Later" && whole == one)
    }

    @Test("a later file whose id is spelled with JSON escapes still wins (files without the id's text are not parsed)")
    func escapedID() throws {
        let user = try TestFiles.temporaryFolder("escaped-templates")
        try TestFiles.write(Array(#"{"version": 1, "id": "cl\u0061ssic", "name": "Escaped", "blocks": [{"lines": ["{user}"]}]}"#.utf8),
                            to: user + "/z.json")
        let (whole, one) = try Self.both("classic", user: user)
        #expect(one.name == "Escaped" && whole == one)
    }

    @Test("an unknown style and an unreadable --template-dir fail the same way")
    func failures() throws {
        #expect(throws: TemplateStore.UnknownStyle.self) {
            try TemplateStore.resolve("no-such-style", builtIn: Self.builtIn, user: "/nonexistent", extraFolders: [])
        }
        #expect(throws: FileError.self) {
            try TemplateStore.resolve("classic", builtIn: Self.builtIn, user: "/nonexistent", extraFolders: ["/nonexistent/dir"])
        }
    }
}
