import Platform

extension Catalog {
    /// The paths of the photos whose stamp carries `code` (the verification code), in the order
    /// they were logged; empty when none does or the catalog predates codes.
    public func paths(code: String) throws(CatalogError) -> [String] {
        try connection.withLock { (connection) throws(CatalogError) -> [String] in
            guard connection.columns.contains("code") else { return [] }
            let statement = try connection.database.prepare("SELECT path FROM photos WHERE code = ?1 ORDER BY rowid", action: "find a code")
            try statement.bind([.text(code)])
            var paths: [String] = []
            while try statement.step() {
                if let path = statement.bytes(0).map(PathEncoding.decode) { paths.append(path) }
            }
            return paths
        }
    }
}
