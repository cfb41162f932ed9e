/// The page, its script, style and icon: files under `Sources/StampWeb/Assets`, embedded in the
/// binary at build time (no data folder to find, no CDN, works offline).
enum WebAssets {
    static var page: [UInt8] { PackageResources.index_html }
    static var script: [UInt8] { PackageResources.app_js }
    static var style: [UInt8] { PackageResources.app_css }
    static var icon: [UInt8] { PackageResources.icon_svg }
    /// The installable web app: its manifest and the service worker that keeps the page offline.
    static var manifest: [UInt8] { PackageResources.manifest_webmanifest }
    static var serviceWorker: [UInt8] { PackageResources.sw_js }
    /// A phone's own camera (`/phone`), and how to make the phone trust the server (`/ca`).
    static var phonePage: [UInt8] { PackageResources.phone_html }
    static var phoneScript: [UInt8] { PackageResources.phone_js }
    static var phoneStyle: [UInt8] { PackageResources.phone_css }
    static var certificatePage: [UInt8] { PackageResources.ca_html }
    /// What both pages' scripts share.
    static var pageScript: [UInt8] { PackageResources.page_js }
    /// The lead's page (`/team`): the team's day.
    static var leadPage: [UInt8] { PackageResources.lead_html }
    static var leadScript: [UInt8] { PackageResources.lead_js }
    static var leadStyle: [UInt8] { PackageResources.lead_css }
}
