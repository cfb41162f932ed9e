import Foundation
import Platform
@testable import Provenance
import TestSupport

/// A fresh scratch folder per test, and OpenSSL's command-line tool as the independent checker.
enum KeysFixture {
    static let now = Int(Date().timeIntervalSince1970)

    static func scratch() -> String {
        let folder = NSTemporaryDirectory() + "stampcam-keys-\(getpid())-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A new installation identity in a new scratch folder.
    static func installation() throws -> InstallationKeys {
        try InstallationKeys.openOrCreate(folder: scratch() + "/stampcam/keys", host: "testhost", now: now)
    }

    static func openssl(_ arguments: [String], input: String? = nil) throws -> ExternalTool.Result {
        try ExternalTool.run("openssl", arguments, input: input)
    }

    static func write(_ text: String, to path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// Permission bits of `path` (not following a link).
    static func mode(_ path: String) -> UInt32? {
        FileStatus(linkAt: FilePath(path)).map { $0.mode & 0o777 }
    }
}
