/// A subcommand: its option table and what it does.
protocol Command {
    static var spec: CommandSpec { get }
    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode
}
