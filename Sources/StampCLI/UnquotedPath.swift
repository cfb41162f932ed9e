import Platform

/// A path with spaces the shell split into several arguments: `apply /x/Apple iPhone 4.jpg` gives
/// three names of nothing, where the three joined by spaces name a file. Found before any work,
/// so the user quotes it and runs again instead of reading a `cannot read` line per piece.
enum UnquotedPath {
    /// The first run of adjacent `arguments` that joined by single spaces names an existing file or
    /// folder, when its first argument names nothing by itself.
    static func find(in arguments: [String]) -> (pieces: [String], joined: String)? {
        for start in arguments.indices where arguments[start] != "-" && !exists(arguments[start]) {
            var joined = arguments[start]
            for end in (start + 1)..<arguments.endIndex {
                joined += " " + arguments[end]
                // No path is longer: a long glob of names with a missing one costs no more than this.
                guard joined.utf8.count <= Self.longestPath else { break }
                if exists(joined) { return (Array(arguments[start...end]), joined) }
            }
        }
        return nil
    }

    /// Refuses the command line when it holds such a path (exit 64, nothing done).
    static func check(_ arguments: [String]) throws(UsageError) {
        if let (pieces, joined) = find(in: arguments) { throw .unquotedPath(pieces: pieces, joined: joined) }
    }

    /// PATH_MAX, with its terminating zero.
    private static let longestPath = 4096

    private static func exists(_ path: String) -> Bool {
        FileStatus(path: FilePath(path)) != nil
    }
}
