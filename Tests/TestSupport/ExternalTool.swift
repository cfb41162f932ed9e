import Foundation

/// Runs another program (python3, poppler's pdfinfo …) as an independent checker of what stampcam
/// writes: its exit status and what it printed.
public enum ExternalTool {
    public struct Result: Sendable {
        public var status: Int32
        public var out: String
        public var err: String
    }

    public struct Missing: Error, CustomStringConvertible {
        public let program: String
        public var description: String { "\(program) is missing (make deps installs it)" }
    }

    /// Runs `program` (a path, or a name looked up in /usr/bin and /bin) with `arguments`, writing
    /// `input` to its standard input.
    public static func run(_ program: String, _ arguments: [String], input: String? = nil) throws -> Result {
        let path = program.hasPrefix("/") ? program
            : ["/usr/bin/", "/bin/"].map { $0 + program }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else { throw Missing(program: program) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        // Standard error goes to a file, so a program filling it cannot block while we read its output.
        let errFile = NSTemporaryDirectory() + "stampcam-tool-\(getpid())-\(UUID().uuidString).err"
        _ = FileManager.default.createFile(atPath: errFile, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errFile) }
        let out = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: errFile)
        process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
        try process.run()
        if let input {
            inPipe.fileHandleForWriting.write(Data(input.utf8))
            try inPipe.fileHandleForWriting.close()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // Read through a handle: FileManager.contents(atPath:) leaks its buffer for an empty file,
        // which LeakSanitizer reports in `make test-asan`.
        let errHandle = FileHandle(forReadingAtPath: errFile)
        let errData = errHandle?.readDataToEndOfFile() ?? Data()
        try? errHandle?.close()
        return Result(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                      err: String(decoding: errData, as: UTF8.self))
    }

    /// Runs a Python 3 script with `arguments` (sys.argv[1:]).
    public static func python(_ script: String, _ arguments: [String] = []) throws -> Result {
        try run("python3", ["-c", script] + arguments)
    }
}
