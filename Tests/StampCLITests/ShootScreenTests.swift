import Foundation
import Testing
import TestSupport

/// The shoot screen end to end, in tmux, with the built-in test pattern: keys in, screen and files out.
@Suite(.serialized) struct ShootScreenTests {
    /// One tmux session running one command; the pane is read as the user would see it.
    final class Pane {
        /// Each pane has a tmux server of its own (-L), so tests never touch the user's tmux.
        let name = "stampcam-test-\(UUID().uuidString.prefix(8))"
        var tmux: String { "tmux -L \(name)" }
        let folder: String

        init(_ command: String, folder: String, columns: Int = 100, rows: Int = 32) throws {
            self.folder = folder
            // The pane's terminal settings are recorded before and after, to see that they come back.
            let script = "stty -g > \(folder)/stty-before; \(command); echo $? > \(folder)/exit; stty -g > \(folder)/stty-after; sleep 60"
            // system(3), not Process: the tmux server it leaves behind confuses Foundation's wait for the child.
            let status = system("\(tmux) new-session -d -s \(name) -x \(columns) -y \(rows) \(CLI.quoted(script)) < /dev/null > /dev/null 2>&1")
            guard status == 0 else { throw Failure(message: "tmux could not start (status \(status))") }
        }

        deinit { system("\(tmux) kill-server > /dev/null 2>&1") }

        /// The pane's text as the user sees it.
        var screen: String {
            guard let pipe = popen("\(tmux) capture-pane -p -t \(name)", "r") else { return "" }
            defer { pclose(pipe) }
            var text = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = fread(&buffer, 1, buffer.count, pipe)
                if count <= 0 { break }
                text.append(contentsOf: buffer[..<count])
            }
            return String(decoding: text, as: UTF8.self)
        }

        func keys(_ keys: String...) {
            system("\(tmux) send-keys -t \(name) " + keys.joined(separator: " "))
        }

        /// Waits until the screen shows `text`; false after `seconds`.
        @discardableResult
        func waitFor(_ text: String, seconds: Double = 8) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if screen.contains(text) { return true }
                usleep(100_000)
            }
            return false
        }

        func waitForExit(seconds: Double = 8) -> Int32? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let text = try? String(contentsOfFile: folder + "/exit", encoding: .utf8), let code = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                    usleep(200_000)
                    return code
                }
                usleep(100_000)
            }
            return nil
        }

        var terminalRestored: Bool {
            let before = try? String(contentsOfFile: folder + "/stty-before", encoding: .utf8)
            let after = try? String(contentsOfFile: folder + "/stty-after", encoding: .utf8)
            return before != nil && before == after
        }
    }

    struct Failure: Error { let message: String }

    static func photos(in folder: String) -> [String] {
        TestFiles.files(in: folder).filter { $0.hasSuffix(".jpg") && !$0.hasSuffix(".original.jpg") && !$0.hasPrefix(".") }
    }

    static func shoot(_ folder: String, extra: String = "") -> String {
        "\(CLI.binary) shoot --device test -o \(folder)/photos --keep-original --user Ana \(extra)"
    }

    @Test("shoot, next style, retake, shoot, previous style, use: one photo, in the chosen style")
    func shootRestyleRetakeUse() throws {
        let folder = try TestFiles.temporaryFolder("screen")
        let pane = try Pane(Self.shoot(folder), folder: folder)
        #expect(pane.waitFor("Space shoot"))
        #expect(pane.screen.contains("style Classic (1/7)"))
        pane.keys("Space")
        #expect(pane.waitFor("u/Enter use"))
        pane.keys("Right")
        #expect(pane.waitFor("style Banner (2/7)"))
        pane.keys("r")
        #expect(pane.waitFor("Space shoot"))
        pane.keys("Space")
        #expect(pane.waitFor("u/Enter use"))
        pane.keys("Left")
        #expect(pane.waitFor("style Classic (1/7)"))
        pane.keys("u")
        #expect(pane.waitFor("Saved \(folder)/photos/"))
        let photos = Self.photos(in: folder + "/photos")
        #expect(photos.count == 1)
        let sidecar = try TestFiles.bytes(folder + "/photos/" + photos[0].replacingOccurrences(of: ".jpg", with: ".json"))
        let json = try #require(JSONSerialization.jsonObject(with: Data(sidecar)) as? [String: Any])
        #expect((json["template"] as? [String: Any])?["id"] as? String == "classic")
        // Quitting with an unsaved photo asks first; "n" goes back, "y" leaves.
        pane.keys("Space")
        #expect(pane.waitFor("u/Enter use"))
        pane.keys("q")
        #expect(pane.waitFor("Quit without saving the photo? (y/n)"))
        pane.keys("n")
        #expect(pane.waitFor("u/Enter use"))
        pane.keys("q")
        #expect(pane.waitFor("Quit without saving"))
        pane.keys("y")
        #expect(pane.waitForExit() == 0)
        #expect(pane.terminalRestored)
        #expect(Self.photos(in: folder + "/photos").count == 1)
    }

    @Test("the status line: the real zoom and the photo's size, the values given; REVIEW says it is not saved; after n the question goes; Saved gives way to the status again")
    func statusLine() throws {
        let folder = try TestFiles.temporaryFolder("screen")
        let pane = try Pane(Self.shoot(folder, extra: "--zoom 4 --project Bridge7"), folder: folder, columns: 140)
        #expect(pane.waitFor("zoom 4.0×"))
        #expect(pane.screen.contains(" 480x270 "), "\(pane.screen)")
        #expect(pane.screen.contains("· Ana · Bridge7"))
        pane.keys("Space")
        #expect(pane.waitFor("REVIEW — not saved"))
        pane.keys("q")
        #expect(pane.waitFor("Quit without saving"))
        pane.keys("n")
        #expect(pane.waitFor("REVIEW — not saved"))
        #expect(!pane.screen.contains("Quit without saving"))
        pane.keys("u")
        #expect(pane.waitFor("Saved \(folder)/photos/"))
        #expect(pane.waitFor("zoom 4.0×", seconds: 10), "the status line comes back after the save")
        pane.keys("q")
        #expect(pane.waitForExit() == 0)
    }

    @Test("at 60x20 the key line still ends in 'q quit'; f and c say when there is nothing to switch")
    func smallTerminal() throws {
        let folder = try TestFiles.temporaryFolder("screen")
        let pane = try Pane(Self.shoot(folder), folder: folder, columns: 60, rows: 20)
        #expect(pane.waitFor("Space shoot"))
        #expect(pane.screen.contains("q quit"), "\(pane.screen)")
        pane.keys("f")
        #expect(pane.waitFor("no flash or torch"))
        pane.keys("c")
        #expect(pane.waitFor("No other camera"))
        pane.keys("q")
        #expect(pane.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: folder + "/photos"), "nothing saved: no folder left")
    }

    @Test("a new key replaces an old notice; a style that drops given values names them; quitting says how many photos were saved where")
    func noticesAndSummary() throws {
        let folder = try TestFiles.temporaryFolder("screen")
        let pane = try Pane(Self.shoot(folder, extra: "--zoom 2 --project Bridge7 --note north"), folder: folder, columns: 160)
        #expect(pane.waitFor("Space shoot"))
        pane.keys("c")
        #expect(pane.waitFor("No other camera"))
        pane.keys("+")
        #expect(pane.waitFor("zoom 2.5×"), "\(pane.screen)")
        #expect(!pane.screen.contains("No other camera"))
        pane.keys("Left")  // evidence, then geo: they show them all
        #expect(pane.waitFor("style Evidence (7/7)"), "\(pane.screen)")
        pane.keys("Left")
        #expect(pane.waitFor("style Geo (6/7)"), "\(pane.screen)")
        pane.keys("Left")
        #expect(pane.waitFor("The style Minimal does not show user, project, note"), "\(pane.screen)")
        pane.keys("Space")
        #expect(pane.waitFor("u/Enter use"))
        pane.keys("u")
        #expect(pane.waitFor("Saved \(folder)/photos/"))
        pane.keys("q")
        #expect(pane.waitForExit() == 0)
        #expect(pane.screen.contains("stampcam: 1 photo saved in \(folder)/photos"), "\(pane.screen)")
    }

    @Test("Ctrl-C leaves at once and gives the terminal back")
    func interrupt() throws {
        let folder = try TestFiles.temporaryFolder("screen")
        let pane = try Pane(Self.shoot(folder), folder: folder)
        #expect(pane.waitFor("Space shoot"))
        pane.keys("C-c")
        #expect(pane.waitForExit() == 130)
        #expect(pane.terminalRestored)
    }

    @Test("SIGHUP (an SSH drop) and SIGTERM end the screen by the signal and give the terminal back",
          arguments: [(SIGHUP, Int32(129)), (SIGTERM, Int32(143))])
    func signals(signal: Int32, status: Int32) throws {
        let folder = try TestFiles.temporaryFolder("screen")
        let pane = try Pane(Self.shoot(folder), folder: folder)
        #expect(pane.waitFor("Space shoot"))
        pane.keys("Space")
        #expect(pane.waitFor("u/Enter use"))  // in review, with a photo not yet saved
        // Anchored at the binary: tmux's and the shell's command lines hold the folder too.
        _ = try CLI.shell("pkill -\(signal) -f -- '^\(CLI.binary) shoot .*\(folder)/photos'")
        #expect(pane.waitForExit() == status)
        #expect(pane.terminalRestored)
        #expect(!pane.screen.contains("u/Enter use"))  // the normal screen is back
        #expect(TestFiles.files(in: folder + "/photos").allSatisfy { !$0.hasPrefix(".stampcam-") })  // no temp or claim left
    }

    @Test("a save into a read-only folder keeps the photo in review; after fixing the folder, u saves it and no claim is left",
          .enabled(if: CLI.unprivilegedCanRun, "nobody cannot reach this checkout"))
    func readOnlyFolder() throws {
        let folder = try TestFiles.temporaryFolder("screen")
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        // Root writes anywhere: run as nobody so the folder's mode counts.
        let asNobody = getuid() == 0
        if asNobody {
            _ = try CLI.shell("chown -R 65534:65534 \(folder) && chmod 755 \(folder)")
        }
        let command = (asNobody ? "setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=\(folder) " : "")
            + Self.shoot(folder)
        let pane = try Pane(command, folder: folder)
        #expect(pane.waitFor("Space shoot"))
        pane.keys("Space")
        #expect(pane.waitFor("u/Enter use"))
        // Read-only once the name is claimed: the claim file cannot be removed until the folder is fixed.
        chmod(photos, 0o555)
        pane.keys("u")
        #expect(pane.waitFor("Not saved:"))
        #expect(pane.screen.contains("u/Enter use"))
        #expect(Self.photos(in: photos).isEmpty)
        chmod(photos, 0o755)
        pane.keys("u")
        #expect(pane.waitFor("Saved \(photos)/"))
        #expect(Self.photos(in: photos).count == 1)
        #expect(TestFiles.files(in: photos).allSatisfy { !$0.hasPrefix(".stampcam-") }, "no claim left: \(TestFiles.files(in: photos))")
        pane.keys("q")
        #expect(pane.waitForExit() == 0)
    }

    @Test("without a terminal, shoot needs --yes; --yes --count 3 --interval 0.2 --exec gets each path")
    func nonInteractive() throws {
        let folder = try TestFiles.temporaryFolder("yes")
        let refused = try CLI.shell("\(CLI.binary) shoot --device test -o \(folder) < /dev/null > /dev/null")
        #expect(refused.code == 64)
        #expect(refused.err.first?.contains("--yes") == true)
        let started = Date()
        let series = try CLI.shell("\(CLI.binary) shoot --yes --device test -o \(folder) --count 3 --interval 0.2 --exec 'echo done:'")
        #expect(series.code == 0)
        #expect(Date().timeIntervalSince(started) >= 0.4)
        let saved = series.out.filter { !$0.hasPrefix("done:") }
        #expect(saved.count == 3)
        #expect(series.out.filter { $0.hasPrefix("done: ") }.map { String($0.dropFirst(6)) } == saved)
        #expect(Self.photos(in: folder).count == 3)
    }

    @Test("shoot writes libjpeg's standard Huffman tables, as cameras do (the shutter's latency first); --optimize makes them for the photo")
    func huffmanTables() throws {
        // The standard luminance DC table (ITU T.81 Annex K.3) as a DHT segment carries it: class 0, id 0, counts, values.
        let standardDC: [UInt8] = [0x00, 0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0] + Array(0...11)
        var sizes: [Int] = []
        for (extra, standard) in [([String](), true), (["--optimize"], false)] {
            let folder = try TestFiles.temporaryFolder("huffman")
            let shot = CLI.run(["shoot", "--yes", "--device", "test", "--no-catalog", "-o", folder] + extra)
            #expect(shot.code == 0, "\(shot.err)")
            let bytes = try TestFiles.bytes(try #require(shot.out.first))
            sizes.append(bytes.count)
            let found = bytes.indices.dropLast(standardDC.count).contains { bytes[$0..<$0 + standardDC.count].elementsEqual(standardDC) }
            #expect(found == standard, "\(extra): the standard DC table \(found ? "is" : "is not") there")
        }
        #expect(sizes[1] < sizes[0], "optimised \(sizes[1]) bytes, standard tables \(sizes[0])")
    }
}
