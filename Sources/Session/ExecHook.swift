import Library
import Platform

/// `--exec CMD`: a program run after each saved photo (the "share" step). CMD is split into words
/// once, like a shell would split it (quotes and backslashes) but with nothing expanded, and run
/// without a shell: `{}` in a word is replaced by the photo's path, which stays inside that one
/// argument whatever characters it holds; without `{}` the path is added as the last argument. A
/// word that a shell runs as a script (the one after `sh -c`, `bash -ec` …) gets the path in
/// single quotes, so the shell reads it as one word and never as code; a `{}` inside quotes of
/// such a script is refused, since no quoting of ours is safe there. The program also finds
/// the paths in `STAMPCAM_PHOTO`, `STAMPCAM_ORIGINAL` and `STAMPCAM_SIDECAR`.
public struct ExecHook: Sendable, Equatable {
    public let words: [String]

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public init(_ command: String) throws(ParseError) {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in command {
            if escaped {
                word.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    word.append(character)
                }
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" || character == "\n" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if quote != nil { throw ParseError(description: "an unclosed quote") }
        if escaped { throw ParseError(description: "a lone backslash at the end") }
        if inWord { words.append(word) }
        guard !words.isEmpty else { throw ParseError(description: "no command") }
        self.words = words
        for index in words.indices where isShellScript(at: index) && Self.hasQuotedPlaceholder(words[index]) {
            throw ParseError(description: "{} inside quotes in a shell script would be read as code; write {} bare "
                + "(stampcam quotes it) or use \"$STAMPCAM_PHOTO\"")
        }
    }

    /// Whether a `{}` in `script` stands inside single or double quotes (or after a backslash), as a shell reads it.
    private static func hasQuotedPlaceholder(_ script: String) -> Bool {
        if script.contains("\\{}") { return true }  // a quote of ours after a backslash would open, not close
        var quote: Character?
        var escaped = false
        var previous: Character?
        for character in script {
            defer { previous = character }
            if escaped {
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
            } else if character == "'" || character == "\"" {
                if quote == nil { quote = character } else if quote == character { quote = nil }
            } else if character == "}" && previous == "{" && quote != nil {
                return true
            }
        }
        return false
    }

    /// The program's arguments for one photo.
    public func arguments(photo: String) -> [String] {
        guard words.contains(where: { $0.contains("{}") }) else { return words + [photo] }
        return words.indices.map { index in
            words[index].replacingAll("{}", with: isShellScript(at: index) ? Self.shellQuoted(photo) : photo)
        }
    }

    /// Whether the word at `index` is a script a shell runs: it follows an option ending in `c`
    /// (`-c`, `-ec`, `-xc`) given to a shell named earlier (`sh`, `bash`, `/bin/dash`, `env sh` …).
    private func isShellScript(at index: Int) -> Bool {
        guard index >= 2 else { return false }
        let option = words[index - 1]
        guard option.hasPrefix("-"), option.hasSuffix("c"), option.dropFirst().allSatisfy(\.isLetter) else { return false }
        return words[..<(index - 1)].contains { Self.shells.contains(PhotoName.lastComponent($0)) }
    }

    private static let shells: Set<String> = ["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish"]

    /// `text` in single quotes, each `'` in it written `'\''`: one word to any POSIX shell.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingAll("'", with: "'\\''") + "'"
    }

    /// Runs the program for a written photo; nil when it succeeded, else a warning saying what went wrong.
    public func share(_ written: WrittenPhoto) -> String? {
        guard let problem = run(photo: written.path, original: written.original, sidecar: written.sidecar) else { return nil }
        return "the share command failed: \(problem); the photo is saved at \(PathEncoding.display(written.path))"
    }

    /// Runs the program for a saved photo; nil when it succeeded, else what went wrong.
    func run(photo: String, original: String?, sidecar: String?) -> String? {
        var environment = ["STAMPCAM_PHOTO": photo]
        environment["STAMPCAM_ORIGINAL"] = original
        environment["STAMPCAM_SIDECAR"] = sidecar
        do {
            let result = try Subprocess.run(arguments(photo: photo), adding: environment)
            return result.succeeded ? nil : "'\(words[0])' \(result)"
        } catch {
            return "cannot run '\(words[0])': \(error)"
        }
    }
}

extension String {
    /// Every `target` replaced by `replacement` (no Foundation needed).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
