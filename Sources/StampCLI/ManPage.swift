/// `stampcam --man`: the manual page stampcam(1) in roff, made from the same command and option
/// tables as `--help`, so the two cannot drift apart.
enum ManPage {
    /// The date the page carries: this release's, so the page (and a package) builds the same every time.
    static let date = "2026-12-01"

    static var roff: String {
        var page = """
        .TH STAMPCAM 1 "\(date)" "stampcam \(StampCLI.version)" "User Commands"
        .SH NAME
        stampcam \\- a watermark camera: who, when, where and for which project, burned into the photo
        .SH SYNOPSIS
        .B stampcam
        .I COMMAND
        .RI [ options ]
        .br
        .B stampcam
        .RB [ \\-\\-help | \\-\\-version ]
        .SH DESCRIPTION
        stampcam takes photos from V4L2 cameras, or stamps existing JPEG photos, with a watermark showing
        the time, the user, the place and the project, written into the pixels and kept in the metadata.
        Originals are only ever read; every write is atomic; nothing is overwritten without being asked.
        .SH COMMANDS

        """
        for command in StampCLI.commands {
            page += ".SS \"\(escape("stampcam " + command.usage))\"\n\(escape(command.translatedSummary))\n"
            for option in command.options {
                var left = option.short.map { "\\fB\\-\(escape(String($0)))\\fR, " } ?? ""
                left += "\\fB\\-\\-\(escape(option.long))\\fR"
                if let value = option.valueName { left += " \\fI\(escape(value))\\fR" }
                page += ".TP\n\(left)\n\(escape(option.translatedHelp))\n"
            }
        }
        page += """
        .SH EXIT STATUS
        .TP
        .B 0
        all done (warnings possible)
        .TP
        .B 64
        bad command line or configuration file
        .TP
        .B 65
        bad photo data, a bad template, damaged camera frames
        .TP
        .B 66
        an input missing or unreadable
        .TP
        .B 69
        a camera or stampcam's own files unavailable
        .TP
        .B 73
        an output cannot be created
        .TP
        .B 74
        an I/O error (a full disk, a card pulled out: run again with --skip-existing once it is back)
        .TP
        .B 130
        interrupted (Ctrl-C); the photos in flight were finished
        .SH ENVIRONMENT
        .TP
        .B STAMPCAM_DATA
        the folder holding fonts/ and templates/ (default: the installed share/stampcam)
        .TP
        .B XDG_CONFIG_HOME
        where stampcam/config.json and stampcam/templates/ are (default ~/.config)
        .TP
        .B XDG_PICTURES_DIR
        where shoot saves photos, in its stampcam folder (default ~/Pictures)
        .SH FILES
        .TP
        .I ~/.config/stampcam/config.json
        defaults for options: long option names as keys
        .TP
        .I ~/.config/stampcam/templates/
        the user's watermark styles (JSON)
        .SH SEE ALSO
        .BR exiftool (1)

        """
        return page
    }

    /// Text safe in roff: backslashes and hyphens escaped, no line starting with a control character.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            default: escaped.append(character)
            }
        }
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ")
    }
}
