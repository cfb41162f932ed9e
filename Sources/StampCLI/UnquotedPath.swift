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
            for end in arguments.indices where end > start {
                joined += " " + arguments[end]
                if exists(joined) { return (Array(arguments[start...end]), joined) }
            }
        }
        return nil
    }

    /// Refuses the command line when it holds such a path (exit 64, nothing done).
    static func check(_ arguments: [String]) throws(UsageError) {
        if let (pieces, joined) = find(in: arguments) { throw .unquotedPath(pieces: pieces, joined: joined) }
    }

    private static func exists(_ path: String) -> Bool {
        FileStatus(path: FilePath(path)) != nil
    }
}
