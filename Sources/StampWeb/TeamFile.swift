import Platform
import Synchronization

/// The team file a running server reads: looked at again whenever it has changed, so a person
/// `team remove` takes out is refused from the next request on, and one added is let in.
public final class TeamFile: Sendable {
    private let configFolder: String
    private let cached: Mutex<(roster: TeamRoster, identity: FileIdentity?, modified: Int)>

    /// Reads the team of `configFolder`; throws when its file cannot be read.
    public init(configFolder: String) throws(TeamRoster.Problem) {
        self.configFolder = configFolder
        let status = FileStatus(path: FilePath(TeamRoster.file(configFolder: configFolder)))
        cached = Mutex((try TeamRoster.load(configFolder: configFolder), status?.identity, status?.modified ?? 0))
    }

    /// The team as its file says now. A file that has become unreadable lets nobody in.
    public var roster: TeamRoster {
        let status = FileStatus(path: FilePath(TeamRoster.file(configFolder: configFolder)))
        let (identity, modified) = (status?.identity, status?.modified ?? 0)
        if let current = cached.withLock({ $0.identity == identity && $0.modified == modified ? $0.roster : nil }) { return current }
        let roster = (try? TeamRoster.load(configFolder: configFolder)) ?? TeamRoster()
        cached.withLock { $0 = (roster, identity, modified) }
        return roster
    }
}
