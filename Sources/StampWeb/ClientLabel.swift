/// A short name for a browser from its User-Agent and address, to tell people who controls the camera.
enum ClientLabel {
    static func make(userAgent: String?, address: String) -> String {
        let agent = userAgent ?? ""
        let browser: String
        if agent.contains("Firefox/") { browser = "Firefox" }
        else if agent.contains("Edg/") { browser = "Edge" }
        else if agent.contains("OPR/") { browser = "Opera" }
        else if agent.contains("Chrome/") || agent.contains("Chromium/") || agent.contains("CriOS/") { browser = "Chrome" }
        else if agent.contains("Safari/") { browser = "Safari" }
        else if agent.hasPrefix("curl/") { browser = "curl" }
        else if agent.lowercased().contains("python") { browser = "a Python script" }
        else if agent.isEmpty { browser = "a program" }
        else { browser = "a browser" }
        let system: String?
        if agent.contains("Android") { system = "Android" }
        else if agent.contains("iPhone") { system = "iPhone" }
        else if agent.contains("iPad") { system = "iPad" }
        else if agent.contains("Windows") { system = "Windows" }
        else if agent.contains("Mac OS X") || agent.contains("Macintosh") { system = "a Mac" }
        else if agent.contains("CrOS") { system = "ChromeOS" }
        else if agent.contains("Linux") { system = "Linux" }
        else { system = nil }
        let place = address.isEmpty ? "" : " (\(address))"
        return browser + (system.map { " on " + $0 } ?? "") + place
    }

    /// Whether `id` is one a page makes: 8 to 64 letters, digits, `-` or `_`.
    static func isClientID(_ id: String) -> Bool {
        (8...64).contains(id.count) && id.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "-" || scalar == "_")
        }
    }
}
