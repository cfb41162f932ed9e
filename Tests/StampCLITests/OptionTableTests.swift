import Testing
@testable import StampCLI

@Suite struct OptionTableTests {
    static let output = Option.text("output", short: "o", value: "DIR", help: "where")
    static let quality = Option.integer("quality", value: "Q", in: 1...100, help: "how good")
    static let overwrite = Flag("overwrite", help: "replace")
    static let set = Option.keyValue("set", value: "KEY=VALUE", help: "a value")
    static let zoom = Option.number("zoom", value: "X", in: 1...1000, example: "2", help: "zoom")
    static let spec = CommandSpec(name: "demo", usage: "demo [options] FILE...", summary: "A demo.",
                                  options: [output, quality, overwrite, set, zoom])

    @Test("argv → options and positionals", arguments: [
        (["a.jpg", "-o", "out"], ParsedOptions(values: ["output": ["out"]], positionals: ["a.jpg"])),
        (["-oout", "a.jpg", "b.jpg"], ParsedOptions(values: ["output": ["out"]], positionals: ["a.jpg", "b.jpg"])),
        (["--output=out", "--quality", "80", "x"], ParsedOptions(values: ["output": ["out"], "quality": ["80"]], positionals: ["x"])),
        (["--overwrite", "--", "-o", "-"], ParsedOptions(values: ["overwrite": [""]], positionals: ["-o", "-"])),
        (["-", "--quality=1", "--quality=2"], ParsedOptions(values: ["quality": ["1", "2"]], positionals: ["-"])),
        ([], ParsedOptions()),
        // A southern latitude is a value, not an option.
        (["which", "-33.86,151.21", "-o", "-1"], ParsedOptions(values: ["output": ["-1"]], positionals: ["which", "-33.86,151.21"])),
        (["-.5,3"], ParsedOptions(positionals: ["-.5,3"])),
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

    @Test("typed options convert their values: ranges checked, later values win, repeatables kept")
    func typed() throws {
        let parsed = try Self.spec.parse(["--quality", "101"])
        #expect(throws: UsageError.badValue(option: "--quality", value: "101", expected: "a whole number from 1 to 100")) {
            try parsed.value(Self.quality)
        }
        #expect(try Self.spec.parse([]).value(Self.quality) == nil)
        #expect(try Self.spec.parse(["--quality", "7", "--quality", "8"]).value(Self.quality) == 8)
        #expect(try Self.spec.parse(["--set", "a=1", "--set", "b==2"]).values(Self.set)
            == [KeyValue(key: "a", value: "1"), KeyValue(key: "b", value: "=2")])
        #expect(throws: UsageError.badValue(option: "--set", value: "=x", expected: "KEY=VALUE")) {
            try Self.spec.parse(["--set", "=x"]).values(Self.set)
        }
        #expect(try Self.spec.parse(["--overwrite"]).flag(Self.overwrite))
    }

    @Test("numbers from the user are finite and in range, so no later conversion can trap",
          arguments: ["1e19", "inf", "nan", "-1", "0.5", "x", ""])
    func numbers(text: String) {
        #expect(throws: UsageError.self) { try Self.spec.parse(["--zoom", text]).value(Self.zoom) }
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
