import Library
import Platform
import Session
import Synchronization
import Values

/// Counts a batch's outcomes and reports them as they come: a path or a JSON line per photo, one
/// line per failure (and per warning), the progress line on a terminal, and the summary at the end.
final class Tally: Sendable {
    private struct Counts {
        var done = 0, skipped = 0
        /// Done under a numbered name because a file had the photo's name.
        var renamed = 0
        /// Done at full size, encoded whole rather than stamped in place.
        var reencoded = 0
        var failures: [Failure] = []
        /// What the stamp said about the given values: the same for every photo, told once.
        var notesTold: Set<String> = []
    }

    private let total: Int
    private let console: Console
    private let display: ApplyCommand.Display
    /// The photos were read without --salvage: failures it would mend may advise it.
    private let salvageHelps: Bool
    private let started = WallClock.monotonic()
    private let counts = Mutex(Counts())

    init(total: Int, console: Console, display: ApplyCommand.Display, salvageHelps: Bool) {
        self.total = total
        self.console = console
        self.display = display
        self.salvageHelps = salvageHelps
    }

    /// One JSON line: paths shown as text (bytes that are not UTF-8 as `\xNN`).
    private struct Line: Encodable {
        let input: String
        let output: String?
        let status: String
        let error: String?
        let warnings: [String]?
        /// Why a JPEG kept at its own size was encoded whole rather than stamped in place.
        let reencoded: String?
    }

    private static func json(_ line: Line) -> String {
        (try? JSONOutput.line(line)) ?? "{}"
    }

    func record(_ outcome: ApplyJob.Outcome) {
        counts.withLock { counts in
            var failure: Failure?
            switch outcome.status {
            case .done:
                counts.done += 1
                if outcome.renamed { counts.renamed += 1 }
                if let why = outcome.reencoded {
                    counts.reencoded += 1
                    console.err("stampcam: \(PathEncoding.display(outcome.input)): " + L("note: re-encoded whole, not stamped in place: {1}", why))
                }
                if !display.json && !console.outIsTerminal, let output = outcome.output { console.out(output) }
            case .skipped:
                counts.skipped += 1
            case .failed:
                let error = Failure(outcome.error ?? FileError.cannotRead(path: outcome.input, reason: "unknown"), path: outcome.input,
                                    salvageHelps: salvageHelps)
                failure = error
                counts.failures.append(error)
                console.err("stampcam: " + error.message)
            }
            for warning in outcome.warnings {
                console.err("stampcam: \(PathEncoding.display(outcome.input)): " + L("warning: {1}", warning))
            }
            for note in outcome.stampNotes where counts.notesTold.insert(note).inserted {
                console.err("stampcam: " + L("warning: {1}", note))
            }
            if display.json {
                console.out(Self.json(Line(input: PathEncoding.display(outcome.input), output: outcome.output.map(PathEncoding.display),
                                           status: outcome.status.rawValue, error: failure?.message,
                                           warnings: outcome.warnings.isEmpty ? nil : outcome.warnings,
                                           reencoded: outcome.reencoded)))
            }
            showProgress(counts)
        }
    }

    private var seconds: Double { WallClock.monotonic() - started }

    private func showProgress(_ counts: Counts) {
        guard !display.quiet && !display.json, let progress = console.progress else { return }
        progress(ProgressLine.render(done: counts.done + counts.skipped + counts.failures.count, total: total, seconds: seconds))
    }

    /// Prints the summary and returns the exit code. `outputLost`: the batch stopped because its
    /// output folder could take no more photos (an I/O error, not a Ctrl-C).
    func finish(interrupted: Bool, outputLost: Bool = false) -> ExitCode {
        counts.withLock { counts in
            let elapsed = seconds
            var summary = L("{1} done, {2} skipped, {3} failed in {4} s", counts.done, counts.skipped, counts.failures.count,
                            ProgressLine.oneDecimal(elapsed))
            if counts.done > 0 && elapsed > 0 { summary += " " + L("({1} photos/s)", ProgressLine.oneDecimal(Double(counts.done) / elapsed)) }
            if counts.renamed > 0 {
                summary += "; " + L("{1} written under a new name (-1, -2 …) because a file had the name: --skip-existing leaves such photos, --overwrite replaces the files",
                                    counts.renamed)
            }
            if counts.reencoded > 0 {
                summary += "; " + L("{1} at full size re-encoded whole, not stamped in place (see the notes)", counts.reencoded)
            }
            if interrupted {
                console.err("stampcam: " + L("interrupted: {1}; run again with --skip-existing to finish", summary))
                return outputLost ? .ioError : .interrupted
            }
            if !display.quiet || !counts.failures.isEmpty {
                console.err("stampcam: " + summary)
            }
            return Failure.exitCode(for: counts.failures)
        }
    }
}
