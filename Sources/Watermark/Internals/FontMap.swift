import CPango
import Synchronization

/// A Pango font map on a private fontconfig setup (fonts/fonts.conf), so text looks the same on every
/// machine whatever the host's font configuration. Pango font maps are not thread-safe: one per thread.
final class FontMap {
    let fontMap: UnsafeMutablePointer<PangoFontMap>

    init(configFile: String) throws(WatermarkError) {
        guard let config = FcConfigCreate() else { throw .fontConfiguration(path: configFile) }
        defer { FcConfigDestroy(config) }
        guard FcConfigParseAndLoad(config, configFile, 1) != 0, FcConfigBuildFonts(config) != 0 else {
            throw .fontConfiguration(path: configFile)
        }
        // A new Pango font map starts a thread that calls FcInit(), which parses the host's whole
        // /etc/fonts setup (some 60 files, ~10 ms) unless a configuration is already current.
        let madeCurrent = FontMap.makeCurrentOnce(config)
        guard let map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) else {
            throw .fontConfiguration(path: configFile)
        }
        // A map without a configuration of its own uses the current one. Giving it one clears its
        // caches, which lists every font family (~1 ms a run): only the maps after the first do.
        if !madeCurrent { pango_fc_font_map_set_config(OpaquePointer(map), config) }
        fontMap = map
    }

    deinit { g_object_unref(fontMap) }

    private static let current = Mutex(false)

    /// Whether `config` was made the current configuration (the first to ask, when fontconfig took it).
    private static func makeCurrentOnce(_ config: OpaquePointer) -> Bool {
        current.withLock { done in
            guard !done else { return false }
            done = FcConfigSetCurrent(config) != 0
            return done
        }
    }
}
