#if canImport(Glibc)
import Glibc
#endif

/// Where the server listens: an IP address (v4 or v6) and a port, from `--listen`. `localhost`
/// means 127.0.0.1; a port alone means 127.0.0.1 too; port 0 lets the system choose a free one.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The address as written for a URL's host: `127.0.0.1`, `[::1]`.
    public let host: String
    public let port: Int
    public let isIPv6: Bool
    /// The raw address bytes (4 or 16).
    let bytes: [UInt8]

    public static let defaultPort = 8080

    /// Parses `ADDR:PORT`, `[V6ADDR]:PORT`, `localhost:PORT`, `ADDR` (port 8080) or `PORT`; nil when
    /// it is none of these (an IPv6 address without brackets included: `::1:80` would be ambiguous).
    public init?(_ text: String) {
        var address = text
        var port = Self.defaultPort
        if let number = Int(text), text.allSatisfy(\.isASCII) {
            address = "127.0.0.1"
            port = number
        } else if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            address = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()) else { return nil }
                port = number
            }
        } else if text.filter({ $0 == ":" }).count > 1 {
            return nil  // an IPv6 address goes in brackets: [::1]:8080
        } else if let colon = text.lastIndex(of: ":") {
            address = String(text[..<colon])
            guard let number = Int(text[text.index(after: colon)...]) else { return nil }
            port = number
        }
        guard (0...65535).contains(port) else { return nil }
        if address == "localhost" { address = "127.0.0.1" }
        if let v4 = Self.parse(address, family: AF_INET, count: 4) {
            bytes = v4
            isIPv6 = false
            host = address
        } else if let v6 = Self.parse(address, family: AF_INET6, count: 16) {
            bytes = v6
            isIPv6 = true
            host = "[" + address + "]"
        } else {
            return nil
        }
        self.port = port
    }

    private static func parse(_ text: String, family: Int32, count: Int) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count < 64 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 16)
        guard inet_pton(family, text, &buffer) == 1 else { return nil }
        return Array(buffer.prefix(count))
    }

    /// The same address with another port (the one the system chose for port 0).
    func with(port: Int) -> ListenAddress {
        ListenAddress(host: host, port: port, isIPv6: isIPv6, bytes: bytes)
    }

    private init(host: String, port: Int, isIPv6: Bool, bytes: [UInt8]) {
        self.host = host
        self.port = port
        self.isIPv6 = isIPv6
        self.bytes = bytes
    }

    /// Only this machine can connect: 127.0.0.0/8 or ::1.
    public var isLoopback: Bool {
        isIPv6 ? bytes == [UInt8](repeating: 0, count: 15) + [1] : bytes[0] == 127
    }

    /// Every address of this machine (0.0.0.0 or ::).
    public var isAnyAddress: Bool { bytes.allSatisfy { $0 == 0 } }

    public var description: String { "\(host):\(port)" }

    /// Calls `body` with the address as a `sockaddr` (and whether it is IPv6).
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, Bool) -> Result) -> Result {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: bytes) }
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, true) } }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        withUnsafeMutableBytes(of: &address.sin_addr) { $0.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, false) } }
    }
}
