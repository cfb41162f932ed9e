import Platform

extension WebServer {
    /// Loads the server's libraries (libmicrohttpd, libqrencode), so `serve` can say they are
    /// missing before it opens a camera.
    public static func loadLibraries() throws(MissingLibrary) {
        _ = try WebLibraries.load()
    }
}
