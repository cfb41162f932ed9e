import Library
import Session
import Templates

/// What every command runs with: where output goes, the environment it was started in (passed in,
/// so tests never read the developer's own configuration), and the data folder.
struct Context {
    let console: Console
    let environment: [String: String]
    let resources: Resources

    /// `$XDG_CONFIG_HOME/stampcam` (or `~/.config/stampcam`).
    var configFolder: String { ConfigFolder.locate(environment: environment) }

    /// Where templates are found: built-in, the user's, then `extraFolders`.
    func templateFolders(extra extraFolders: [String]) -> TemplateStore.Folders {
        TemplateStore.Folders(builtIn: resources.templates, user: configFolder + "/templates", extra: extraFolders)
    }

    /// The templates: built-in, the user's, then `extraFolders`.
    func templates(extraFolders: [String]) throws(FileError) -> TemplateStore {
        try TemplateStore(templateFolders(extra: extraFolders))
    }

    /// The one style `choice` names (an id, or a template file), the others not made.
    func template(_ choice: String?, extraFolders: [String]) throws -> Template {
        try TemplateStore.resolve(choice, in: templateFolders(extra: extraFolders))
    }
}
