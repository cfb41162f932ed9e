/// The check page and its script and style: files under `Sources/StampWeb/Assets`, embedded in
/// the binary at build time like the camera page's.
enum CheckAssets {
    static var page: [UInt8] { PackageResources.verify_html }
    static var script: [UInt8] { PackageResources.verify_js }
    static var style: [UInt8] { PackageResources.verify_css }
}
