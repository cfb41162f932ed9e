import Foundation

/// Counts a batch's outcomes and reports them as they come: a path or a JSON line per photo, one
/// line per failure, the progress line on a terminal, and the summary at the end.
final class Tally: @unchecked Sendable {
    private let total: Int
    private let console: Console
    private let quiet: Bool
    private let json: Bool
    private let started = Date()
    private let lock = NSLock()
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
    private var done = 0, skipped = 0
    private(set) var failures: [Failure] = []

    init(total: Int, console: Console, settings: ApplyCommand.Settings) {
        self.total = total
        self.console = console
        quiet = settings.quiet
        json = settings.json
    }

    private struct Line: Encodable {
        let input: String
        let output: String?
        let status: String
        let error: String?
    }

    private func emit(input: String, output: String?, status: String, error: String?) {
        guard json else { return }
        if let data = try? encoder.encode(Line(input: input, output: output, status: status, error: error)) {
            console.out(String(decoding: data, as: UTF8.self))
        }
    }

    func record(failure: Failure, input: String) {
        lock.withLock {
            failures.append(failure)
            console.err("stampcam: " + failure.message)
            emit(input: input, output: nil, status: "failed", error: failure.message)
            showProgress()
        }
    }

    func record(_ outcome: BatchRunner<Stamper>.Outcome) {
        lock.withLock {
            switch outcome.status {
            case .done:
                done += 1
                if !json && !console.outIsTerminal, let output = outcome.output { console.out(output) }
            case .skipped:
                skipped += 1
            case .failed:
                if let failure = outcome.failure {
                    failures.append(failure)
                    console.err("stampcam: " + failure.message)
                }
            }
            emit(input: outcome.item.input, output: outcome.output, status: outcome.status.rawValue,
                 error: outcome.failure?.message)
            showProgress()
        }
    }

    private var seconds: Double { Date().timeIntervalSince(started) }

    private func showProgress() {
        guard !quiet && !json, let progress = console.progress else { return }
        progress(ProgressLine.render(done: done + skipped + failures.count, total: total, seconds: seconds))
    }

    /// Prints the summary and returns the exit code.
    func finish(interrupted: Bool) -> ExitCode {
        lock.withLock {
            let elapsed = seconds
            var summary = "\(done) done, \(skipped) skipped, \(failures.count) failed in \(ProgressLine.oneDecimal(elapsed)) s"
            if done > 0 && elapsed > 0 { summary += " (\(ProgressLine.oneDecimal(Double(done) / elapsed)) photos/s)" }
            if interrupted {
                console.err("stampcam: interrupted: \(summary); run again with --skip-existing to finish")
                return .interrupted
            }
            if !quiet || !failures.isEmpty {
                console.err("stampcam: " + summary)
            }
            return Failure.exitCode(for: failures)
        }
    }
}
