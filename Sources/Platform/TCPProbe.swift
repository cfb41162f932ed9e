#if canImport(Glibc)
import Glibc
#endif

/// Whether anything accepts TCP connections at an address. A refused connection is known at once,
/// so a client library (libgps and its dozen dependencies) need not be loaded to learn that
/// nothing is there.
public enum TCPProbe {
    /// nil when something accepted a connection at `host`:`port` (closed again at once), or when
    /// it cannot be told (a signal cut the attempt short); otherwise why not, in the system's words.
    public static func refusal(host: String, port: String) -> String? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, port, &hints, &found)
        guard status == 0, let first = found else {
            return status == EAI_NONAME ? "no such host" : String(cString: gai_strerror(status)).lowercased()
        }
        defer { freeaddrinfo(first) }
        var reason = "cannot connect"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
                                    address.pointee.ai_protocol)
            guard descriptor >= 0 else { continue }
            let connected = connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen)
            let error = Errno.current
            close(descriptor)
            // An interrupted connect goes on in the background: retrying it says nothing, so the
            // caller is left to find out the usual way.
            if connected == 0 || error == .interrupted { return nil }
            reason = error.description.lowercased()
        }
        return reason
    }
}
