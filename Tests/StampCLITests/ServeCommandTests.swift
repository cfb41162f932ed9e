import Foundation
import Testing
import TestSupport
@testable import StampCLI

#if canImport(Glibc)
import Glibc
#endif

/// `stampcam serve`'s command line: what it refuses before it listens, and an address in use.
/// (The server itself is tested over sockets and in Chromium by `make test-web`.)
@Suite struct ServeCommandTests {
    @Test("bad --listen, --token-file and --preview-size values: exit 64 naming them", arguments: [
        (["--listen", "example.com:80"], "option '--listen': 'example.com:80' is not an address and port like"),
        (["--listen", "127.0.0.1:70000"], "option '--listen': '127.0.0.1:70000'"),
        (["--token-file", "/nonexistent/token"], "option '--token-file': '/nonexistent/token' is not a readable file"),
        (["--preview-size", "10"], "option '--preview-size': '10' is not a whole number from 160 to 3840"),
    ])
    func refused(arguments: [String], message: String) throws {
        let result = CLI.run(["serve", "--device", "test", "-o", try TestFiles.temporaryFolder("serve")] + arguments)
        #expect(result.code == 64)
        #expect(result.err.first?.hasPrefix("stampcam: " + message) == true, "\(result.err)")
    }

    @Test("a token file whose first line is no token: exit 64; other users can read it: a warning")
    func tokenFile() throws {
        let folder = try TestFiles.temporaryFolder("token")
        try TestFiles.write(Array("short\n".utf8), to: folder + "/token")
        let short = CLI.run(["serve", "--device", "test", "-o", folder, "--token-file", folder + "/token"])
        #expect(short.code == 64)
        #expect(short.err.first?.contains("a token of 16 to 200 letters") == true)
        #expect(throws: Never.self) {
            try TestFiles.write(Array("0123456789abcdef0123\nsecond line\n".utf8), to: folder + "/token")
        }
        chmod(folder + "/token", 0o644)
        let token = try ServeCommand.readToken(folder + "/token", console: Console(out: { _ in }, err: { line in
            #expect(line.contains("can be read by other users"))
        }))
        #expect(token == "0123456789abcdef0123")
    }

    @Test("an address already in use: exit 69 saying so, the camera released")
    func addressInUse() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 1) == 0
                && getsockname(listener, $0, &length) == 0 }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let result = CLI.run(["serve", "--device", "test", "-o", try TestFiles.temporaryFolder("busy"), "--listen", "127.0.0.1:\(port)"])
        #expect(result.code == 69)
        #expect(result.err.last == "stampcam: cannot listen on 127.0.0.1:\(port): address already in use; choose another address or port with --listen",
                "\(result.err)")
    }

    @Test("serve --help lists its own options and shoot's")
    func help() {
        let help = CLI.run(["serve", "--help"]).out.joined(separator: "\n")
        for option in ["--listen ADDR:PORT", "--token-file FILE", "--preview-size PX", "--device D", "--keep-original", "--user NAME"] {
            #expect(help.contains(option), "\(option)")
        }
    }
}
