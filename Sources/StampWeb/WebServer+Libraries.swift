import Platform

extension WebServer {
    /// Loads the server's library (libmicrohttpd), so `serve` can say it is missing before it
    /// opens a camera.
    public static func loadLibraries() throws(MissingLibrary) {
        _ = try WebLibraries.load()
    }
}
