import Foundation

/// Phil Harvey's exiftool (Debian's libimage-exiftool-perl, installed by `make deps`): an
/// independent reader to check what stampcam writes against.
public enum ExifTool {
    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Runs exiftool with `arguments` and returns what it printed on standard output.
    public static func output(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            throw Failure(message: "exiftool is missing (make deps installs libimage-exiftool-perl): \(error)")
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    public static func text(_ arguments: [String]) throws -> String {
        String(decoding: try output(arguments), as: UTF8.self)
    }

    /// The warnings of `exiftool -validate` for a file.
    public static func validationWarnings(_ path: String) throws -> Set<String> {
        let lines = try text(["-a", "-s", "-validate", "-warning", path]).split(separator: "\n")
        return Set(lines.filter { $0.hasPrefix("Warning") }.map { line in
            String(line.drop { $0 != ":" }.dropFirst().drop { $0 == " " })
        })
    }

    /// How many maker-note tags exiftool reads from the file's EXIF block (a camera's trailer after
    /// the JPEG's end, such as Samsung's, is not EXIF and not counted).
    public static func makerNoteTagCount(_ path: String) throws -> Int {
        let exif = try output(["-b", "-EXIF", path])
        guard !exif.isEmpty else { return 0 }
        let file = NSTemporaryDirectory() + "stampcam-exif-\(getpid())-\(UUID().uuidString).exif"
        try exif.write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try text(["-a", "-G0", "-s", "-MakerNotes:all", file]).split(separator: "\n").count
    }

    /// exiftool's lines ("[Group] Tag : value") for the maker notes of a file (Kodak's private
    /// IFD in IFD0 among them), without the preview image's tags.
    public static func makerNoteLines(_ path: String) throws -> [String] {
        let exif = try output(["-b", "-EXIF", path])
        guard !exif.isEmpty else { return [] }
        let file = NSTemporaryDirectory() + "stampcam-exif-\(getpid())-\(UUID().uuidString).exif"
        try exif.write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try text(["-a", "-G1", "-s", "-MakerNotes:all", file]).split(separator: "\n").map(String.init)
            .filter { !$0.contains("PreviewImage") }
    }

    /// Every tag of a file as exiftool's JSON names them (`-G1`: "IFD0:Artist", "XMP-dc:Creator" …),
    /// values as text.
    public static func tags(_ path: String) throws -> [String: String] {
        let data = try output(["-j", "-G1", "-a", "-struct", "-n", path])
        guard let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]], let first = array.first else {
            throw Failure(message: "exiftool -j printed no object for \(path)")
        }
        return first.mapValues { value in
            if let text = value as? String { return text }
            if let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) {
                return String(decoding: data, as: UTF8.self)
            }
            return "\(value)"
        }
    }
}

/// xmllint (Debian's libxml2-utils): a strict XML parser.
public enum XMLLint {
    /// Whether `bytes` are well-formed XML; the parser's complaint when not.
    public static func check(_ bytes: [UInt8]) throws -> String? {
        let file = NSTemporaryDirectory() + "stampcam-xml-\(getpid())-\(UUID().uuidString).xml"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        process.arguments = ["--noout", "--nonet", file]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : String(decoding: complaint, as: UTF8.self)
    }
}
