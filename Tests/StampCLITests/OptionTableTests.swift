import Testing
@testable import StampCLI

@Suite struct OptionTableTests {
    static let spec = CommandSpec(name: "demo", usage: "demo [options] FILE...", summary: "A demo.", options: [
        OptionSpec("output", short: "o", value: "DIR", help: "where"),
        OptionSpec("quality", value: "Q", help: "how good"),
        OptionSpec("overwrite", help: "replace"),
    ])

    @Test("argv → options and positionals", arguments: [
        (["a.jpg", "-o", "out"], ParsedOptions(values: ["output": ["out"]], positionals: ["a.jpg"])),
        (["-oout", "a.jpg", "b.jpg"], ParsedOptions(values: ["output": ["out"]], positionals: ["a.jpg", "b.jpg"])),
        (["--output=out", "--quality", "80", "x"], ParsedOptions(values: ["output": ["out"], "quality": ["80"]], positionals: ["x"])),
        (["--overwrite", "--", "-o", "-"], ParsedOptions(values: ["overwrite": [""]], positionals: ["-o", "-"])),
        (["-", "--quality=1", "--quality=2"], ParsedOptions(values: ["quality": ["1", "2"]], positionals: ["-"])),
        ([], ParsedOptions()),
    ])
    func parses(argv: [String], expected: ParsedOptions) throws {
        #expect(try Self.spec.parse(argv) == expected)
    }

    @Test("errors name the bad argument", arguments: [
        (["--colour", "red"], UsageError.unknownOption("--colour", command: "demo")),
        (["-x"], UsageError.unknownOption("-x", command: "demo")),
        (["a", "-o"], UsageError.missingValue(option: "-o")),
        (["--quality"], UsageError.missingValue(option: "--quality")),
        (["--overwrite=yes"], UsageError.unexpectedValue(option: "--overwrite")),
    ])
    func errors(argv: [String], expected: UsageError) {
        #expect(throws: expected) { try Self.spec.parse(argv) }
    }

    @Test("integer options are range-checked")
    func integers() throws {
        let parsed = try Self.spec.parse(["--quality", "101"])
        #expect(throws: UsageError.badValue(option: "--quality", value: "101", expected: "a whole number from 1 to 100")) {
            try parsed.integer("quality", in: 1...100, default: 90)
        }
        #expect(try Self.spec.parse([]).integer("quality", in: 1...100, default: 90) == 90)
        #expect(try Self.spec.parse(["--quality", "7"]).integer("quality", in: 1...100, default: 90) == 7)
    }

    @Test("help is generated from the same table")
    func help() {
        let help = Self.spec.help
        #expect(help.contains("usage: stampcam demo [options] FILE..."))
        #expect(help.contains("-o, --output DIR"))
        #expect(help.contains("    --quality Q"))
        #expect(help.contains("--overwrite"))
    }

    @Test("every real command's help lists every option")
    func realHelp() {
        for command in StampCLI.commands {
            for option in command.options { #expect(command.help.contains("--\(option.long)")) }
        }
    }
}
