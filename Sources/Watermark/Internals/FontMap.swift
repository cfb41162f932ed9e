internal import CPango
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

    /// Whether a font of `family` is installed, by its own name or through an alias of the setup
    /// (`Sans`): Pango draws a family that matches nothing in the fallback font without a word.
    func hasFamily(_ family: String) -> Bool {
        guard let config = pango_fc_font_map_get_config(OpaquePointer(fontMap)), let pattern = FcPatternCreate() else { return true }
        defer { FcPatternDestroy(pattern) }
        _ = family.withCString { name in
            name.withMemoryRebound(to: FcChar8.self, capacity: 1) { FcPatternAddString(pattern, "family", $0) }
        }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        var value = FcValue(), binding = FcValueBindingWeak, index: Int32 = 0
        while FcPatternGetWithBinding(pattern, "family", index, &value, &binding) == FcResultMatch {
            index += 1
            // The fallbacks every name gets are bound weakly; the name and what an alias makes of it are not.
            guard binding != FcValueBindingWeak, value.type == FcTypeString, let name = value.u.s else { continue }
            if Self.listsFonts(config, family: name) { return true }
        }
        return false
    }

    private static func listsFonts(_ config: OpaquePointer, family: UnsafePointer<FcChar8>) -> Bool {
        guard let pattern = FcPatternCreate() else { return true }
        defer { FcPatternDestroy(pattern) }
        FcPatternAddString(pattern, "family", family)
        guard let objects = FcObjectSetCreate() else { return true }
        defer { FcObjectSetDestroy(objects) }
        FcObjectSetAdd(objects, "family")
        guard let fonts = FcFontList(config, pattern, objects) else { return true }
        defer { FcFontSetDestroy(fonts) }
        return fonts.pointee.nfont > 0
    }

    private static let current = Mutex(false)

    private static func makeCurrentOnce(_ config: OpaquePointer) {
        current.withLock { done in
            if !done { done = FcConfigSetCurrent(config) != 0 }
        }
    }
}
