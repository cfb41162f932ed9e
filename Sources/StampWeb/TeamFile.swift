import Platform
import Synchronization

/// The team file a running server reads: looked at again whenever it has changed, so a person
/// `team remove` takes out is refused from the next request on, and one added is let in.
public final class TeamFile: Sendable {
    private let configFolder: String
    private let cached: Mutex<(roster: TeamRoster, identity: FileIdentity?, modified: Int)>
    private let changing = Mutex(())

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
        // A file changed within the last seconds is read again: a change in the same second as the
        // last (an inode freed and taken again) looks the same to its status.
        let settled = WallClock.now().secondsSinceEpoch - modified >= 2
        if settled, let current = cached.withLock({ $0.identity == identity && $0.modified == modified ? $0.roster : nil }) { return current }
        let roster = (try? TeamRoster.load(configFolder: configFolder)) ?? TeamRoster()
        cached.withLock { $0 = (roster, identity, modified) }
        return roster
    }

    /// Changes the team as its file says now and writes it back (0600, in one step): what a lead's
    /// page does. Changes made here one at a time, so two leads adding at once both stay.
    func change<Result>(_ body: (inout TeamRoster) throws(TeamRoster.Problem) -> Result) throws(TeamRoster.Problem) -> Result {
        try changing.withLock { _ throws(TeamRoster.Problem) -> Result in
            var roster = try TeamRoster.load(configFolder: configFolder)
            let result = try body(&roster)
            try roster.save(configFolder: configFolder)
            return result
        }
    }
}
