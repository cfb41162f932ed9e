import CFontconfig
import CPango
import Platform
import Synchronization

/// A Pango font map on a private fontconfig setup (fonts/fonts.conf), so text looks the same on every
/// machine whatever the host's font configuration. Pango font maps are not thread-safe: one per thread.
final class FontMap {
    let fontMap: UnsafeMutablePointer<PangoFontMap>

    init(configFile: String) throws(WatermarkError) {
        guard let config = FcConfigCreate() else { throw .fontConfiguration(path: configFile) }
        defer { FcConfigDestroy(config) }
        let parsed = FilePath(configFile).withCString { path in
            path.withMemoryRebound(to: FcChar8.self, capacity: 1) { FcConfigParseAndLoad(config, $0, 1) }
        }
        guard parsed != 0, FcConfigBuildFonts(config) != 0 else {
            throw .fontConfiguration(path: configFile)
        }
        // Also the process's current setup, so nothing that asks fontconfig for its default (Pango
        // starting up) reads the host's own.
        FontMap.makeCurrentOnce(config)
        guard let map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) else {
            throw .fontConfiguration(path: configFile)
        }
        pango_fc_font_map_set_config(OpaquePointer(map), config)
        fontMap = map
    }

    deinit { g_object_unref(fontMap) }

    private static let current = Mutex(false)

    private static func makeCurrentOnce(_ config: OpaquePointer) {
        current.withLock { done in
            if !done { done = FcConfigSetCurrent(config) != 0 }
        }
    }
}
