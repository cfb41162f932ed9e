import Platform

/// `stampcam completion bash|zsh|fish`: tab completion for a shell, made from the command and option
/// tables: commands, options, style ids (asked of `stampcam styles` when completing), camera nodes for
/// `--device`, folders for `DIR` values and files for photos.
enum CompletionCommand: Command {
    static let spec = CommandSpec(
        name: "completion",
        usage: "completion bash|zsh|fish",
        summary: marked("command", "Print tab completion for a shell (installed with the package; or: source <(stampcam completion bash))."),
        options: [])

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        guard options.positionals.count == 1, let shell = Shell(rawValue: options.positionals[0]) else {
            throw UsageError.missing("one shell: bash, zsh or fish", command: spec.name)
        }
        context.console.out(script(for: shell))
        return .success
    }

    enum Shell: String { case bash, zsh, fish }

    /// What a value of an option is, read from its placeholder in the table.
    enum Value {
        case style, device, folder, file, other

        init(_ valueName: String) {
            switch valueName {
            case "ID|FILE": self = .style
            case "D": self = .device
            case "DIR": self = .folder
            case "FILE", "PHOTO": self = .file
            default: self = .other
            }
        }
    }

    static var commands: [CommandSpec] { StampCLI.commands.filter { $0.name != "bench" } }

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: return bash
        case .zsh: return zsh
        case .fish: return fish
        }
    }

    static let styles = "stampcam styles 2>/dev/null | cut -d' ' -f1"
    static let devices = "test $(ls /dev/video* 2>/dev/null)"

    static var bash: String {
        let names = commands.map(\.name).joined(separator: " ")
        var script = """
        # bash completion for stampcam (made by 'stampcam completion bash')
        _stampcam() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} options
            if [ "$COMP_CWORD" -eq 1 ]; then
                COMPREPLY=($(compgen -W "\(names) --help --version" -- "$cur")); return
            fi
            case "${COMP_WORDS[1]}" in

        """
        for command in commands {
            let flags = command.options.flatMap { ["--" + $0.long] + ($0.short.map { ["-\($0)"] } ?? []) }
            script += "        \(command.name)) options=\"\(flags.joined(separator: " "))\"\n"
            // What follows an option that takes a value: by the value's placeholder in the table.
            var cases: [Value: [String]] = [:]
            for option in command.options {
                guard let value = option.valueName else { continue }
                cases[Value(value), default: []] += ["--" + option.long] + (option.short.map { ["-\($0)"] } ?? [])
            }
            guard !cases.isEmpty else {
                script += "            ;;\n"
                continue
            }
            script += "            case \"$prev\" in\n"
            for (value, action) in [(Value.style, "COMPREPLY=($(compgen -W \"$(\(styles))\" -- \"$cur\") $(compgen -f -X '!*.json' -- \"$cur\"))"),
                                    (.device, "COMPREPLY=($(compgen -W \"\(devices)\" -- \"$cur\"))"),
                                    (.folder, "COMPREPLY=($(compgen -d -- \"$cur\"))"),
                                    (.file, "COMPREPLY=($(compgen -f -- \"$cur\"))"),
                                    (.other, ":")] {
                guard let options = cases[value] else { continue }
                script += "                \(options.joined(separator: "|"))) \(action); return;;\n"
            }
            script += "            esac;;\n"
        }
        script += """
            esac
            if [[ "$cur" == -* ]]; then
                COMPREPLY=($(compgen -W "$options" -- "$cur"))
            else
                compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))
            fi
        }
        complete -F _stampcam stampcam

        """
        return script
    }

    static var zsh: String {
        var script = """
        #compdef stampcam
        # zsh completion for stampcam (made by 'stampcam completion zsh')
        _stampcam_styles() { local -a ids; ids=(${(f)"$(\(styles))"}); _describe 'style' ids; _files -g '*.json' }
        _stampcam_devices() { local -a nodes; nodes=(test /dev/video*(N)); _describe 'camera' nodes }
        _stampcam() {
            local -a commands
            commands=(

        """
        for command in commands {
            script += "        '\(command.name):\(zshQuoted(command.translatedSummary))'\n"
        }
        script += """
            )
            if (( CURRENT == 2 )); then _describe 'command' commands; return; fi
            case $words[2] in

        """
        for command in commands {
            let arguments = command.options.map { option -> String in
                let names = option.short.map { "'(-\($0) --\(option.long))'{-\($0),--\(option.long)}" } ?? "--\(option.long)"
                let help = zshQuoted(option.translatedHelp)
                guard let value = option.valueName else { return "\(names)'[\(help)]'" }
                let action: String
                switch Value(value) {
                case .style: action = "_stampcam_styles"
                case .device: action = "_stampcam_devices"
                case .folder: action = "_files -/"
                case .file: action = "_files"
                case .other: action = " "
                }
                return "\(names)'[\(help)]:\(zshQuoted(value)):\(action)'"
            }
            script += "        \(command.name)) _arguments \\\n            "
                + (arguments + ["'*:file:_files'"]).joined(separator: " \\\n            ") + ";;\n"
        }
        script += """
            esac
        }
        _stampcam "$@"

        """
        return script
    }

    static var fish: String {
        var script = "# fish completion for stampcam (made by 'stampcam completion fish')\n"
        script += "complete -c stampcam -f\n"
        for command in commands {
            script += "complete -c stampcam -n __fish_use_subcommand -a \(command.name) -d \(fishQuoted(command.translatedSummary))\n"
        }
        for command in commands {
            for option in command.options {
                var line = "complete -c stampcam -n '__fish_seen_subcommand_from \(command.name)' -l \(option.long)"
                if let short = option.short { line += " -s \(short)" }
                if let value = option.valueName {
                    switch Value(value) {
                    case .style: line += " -r -a '(\(styles))'"
                    case .device: line += " -r -a '\(devices)'"
                    case .folder: line += " -r -a '(__fish_complete_directories)'"
                    case .file: line += " -r -F"
                    case .other: line += " -r"
                    }
                }
                script += line + " -d \(fishQuoted(option.translatedHelp))\n"
            }
            script += "complete -c stampcam -n '__fish_seen_subcommand_from \(command.name)' -F\n"
        }
        return script
    }

    /// Text inside zsh's single-quoted `[help]` and `:message:` parts.
    static func zshQuoted(_ text: String) -> String {
        var quoted = ""
        for character in text {
            switch character {
            case "'": quoted += "'\\''"
            case "[", "]", ":": quoted += "\\" + String(character)
            default: quoted.append(character)
            }
        }
        return quoted
    }

    static func fishQuoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "\\'") + "'"
    }
}
