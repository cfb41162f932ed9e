import Foundation
import StampCLI
import TestSupport

/// Runs stampcam in-process with its output captured, or the built binary as a child process.
struct CLIResult {
    var code: Int32
    var out: [String]
    var err: [String]
}

final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.lock(); stored.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}

enum CLI {
    /// The home folder of this test process: a new empty temp folder. The binary run as a child
    /// inherits it (so it never reads the developer's ~/.config/stampcam or ~/Pictures); stampcam run
    /// in-process gets it in the environment it is passed.
    static let home: String = {
        let home = NSTemporaryDirectory() + "stampcam-home-\(getpid())-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        // Replace values, never add a variable: glibc's setenv reallocates the environment when it
        // grows, and other tests' threads may be reading it. HOME is always set, and without
        // XDG_CONFIG_HOME the config is $HOME/.config.
        setenv("HOME", home, 1)
        if getenv("XDG_CONFIG_HOME") != nil { setenv("XDG_CONFIG_HOME", home + "/.config", 1) }
        if getenv("XDG_PICTURES_DIR") != nil { setenv("XDG_PICTURES_DIR", home + "/Pictures", 1) }
        if getenv("XDG_DATA_HOME") != nil { setenv("XDG_DATA_HOME", home + "/.local/share", 1) }
        if getenv("STAMPCAM_DATA") != nil { setenv("STAMPCAM_DATA", TestFiles.packageRoot, 1) }
        // The signing identity is made now, once: otherwise whichever test signs first would get
        // the "made a new signing identity" line, and a test counting lines would fail by the order.
        let made = StampCLI.run(["keys"], console: Console(out: { _ in }, err: { _ in }),
                                environment: ["HOME": home, "XDG_DATA_HOME": home + "/.local/share"])
        precondition(made == 0, "the tests' signing identity could not be made in \(home)")
        return home
    }()

    /// Runs in-process with an environment of its own (`home`, plus `extra`).
    static func run(_ arguments: [String], environment extra: [String: String] = [:]) -> CLIResult {
        let out = LineCollector(), err = LineCollector()
        let code = StampCLI.run(arguments, console: Console(out: { out.append($0) }, err: { err.append($0) }),
                                environment: cleanEnvironment.merging(extra) { _, given in given })
        return CLIResult(code: code, out: out.lines, err: err.lines)
    }

    static var cleanEnvironment: [String: String] {
        ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_PICTURES_DIR": home + "/Pictures", "XDG_DATA_HOME": home + "/.local/share"]
    }

    /// The stampcam binary built beside the test bundle.
    static var binary: String {
        _ = home
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("stampcam").path
    }

    /// Runs `command` with bash (so a test can set `ulimit` or drop privileges) and captures stderr.
    static func shell(_ command: String) throws -> CLIResult {
        _ = home
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        let errPipe = Pipe(), outPipe = Pipe()
        process.standardError = errPipe
        process.standardOutput = outPipe
        try process.run()
        let errData = errPipe.fileHandleForReading.readDataToEndOfFile()
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        func lines(_ data: Data) -> [String] {
            String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        return CLIResult(code: process.terminationStatus, out: lines(outData), err: lines(errData))
    }

    /// Permission tests run stampcam as `nobody` when we are root (root reads and writes anything).
    /// They need nobody to reach the binary and its fonts; a checkout under a private folder (like
    /// /root) does not allow that, and then those tests are skipped rather than failed.
    static let unprivilegedCanRun: Bool = {
        guard getuid() == 0 else { return true }
        let check = "setpriv --reuid=65534 --regid=65534 --clear-groups -- test -x \(quoted(binary)) -a -r \(quoted(TestFiles.packageRoot + "/fonts/fonts.conf"))"
        return (try? shell(check))?.code == 0
    }()

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
