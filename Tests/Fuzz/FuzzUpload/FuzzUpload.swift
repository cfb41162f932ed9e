import Platform
@testable import StampWeb

#if canImport(Glibc)
import Glibc
#endif

/// A photo upload (`POST /api/photos`) as `serve` receives it: libmicrohttpd's threads and post
/// processor, the `UploadReceiver` that streams the photo to a temp file and keeps the other
/// fields, then the fields read as the web app reads them (position, accuracy, phone time …).
/// The input is a Content-Type line and the body; the server must answer every one and never
/// crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUpload(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // The first line is the Content-Type (CR and LF left out: a header cannot hold them).
    let split = input.firstIndex(of: 0x0A) ?? -1
    let contentType = split < 0 ? "multipart/form-data; boundary=fuzz"
        : String(decoding: input[..<split].filter { $0 != 0x0D && $0 != 0 }, as: UTF8.self)
    let body = Array(input[(split + 1)...])
    let head = "POST /api/photos HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: \(contentType)\r\n"
        + "Content-Length: \(body.count)\r\n\r\n"
    let answer = UploadServer.shared.exchange(Array(head.utf8) + body)
    precondition(answer.starts(with: Array("HTTP/1.1 ".utf8)), "no answer to an upload")
    return 0
}

/// Where the uploads' temp files go.
let folder: String = {
    var template = Array("/tmp/stampcam-fuzz-upload-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        fatalError("cannot make a folder for the uploads: \(Errno.current)")
    }
    return String(cString: made)
}()

/// One server for the whole run, on a port of the loopback the system picks.
final class UploadServer: Sendable {
    static let shared = UploadServer()

    let daemon: HTTPDaemon

    private init() {
        do {
            daemon = try HTTPDaemon(address: ListenAddress("127.0.0.1:0")!, limits: HTTPLimits(),
                                    uploads: .init(path: "/api/photos", folder: folder, admit: { _ in nil })) { request in
                guard let upload = request.upload else { return .json(status: 400, error: "no form") }
                switch WebApp.uploadValues(upload.fields, person: nil, photo: upload.photo, owner: "fuzz") {
                case .success: return .json(status: 200, Array("{}".utf8))
                case .failure(let refusal): return refusal.response
                }
            }
        } catch {
            fatalError("cannot start the server: \(error)")
        }
        // It holds only unnamed temp files: empty, it goes when the run ends.
        atexit { rmdir(folder) }
    }

    /// Sends `request` on a new connection and reads the answer until the server closes it.
    func exchange(_ request: [UInt8]) -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        precondition(fd >= 0, "socket: \(Errno.current)")
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(daemon.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(connected == 0, "connect: \(Errno.current)")
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }  // the server answered early and closed: its answer is read below
            sent += count
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            answer += buffer[..<count]
        }
        return answer
    }
}
