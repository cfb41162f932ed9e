import Platform

/// Reading HEIC photos, an optional feature: libheif is opened when the first one is read.
public enum HEIFSupport {
    /// Loads libheif now (`doctor`); throws when it is missing.
    public static func load() throws(MissingLibrary) {
        _ = try HEIFFile.library()
    }
}
