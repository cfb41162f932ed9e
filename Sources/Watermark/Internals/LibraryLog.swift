internal import CPango
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Catches what Pango, GLib and GObject log — CRITICALs from failed assertions, WARNINGs about fonts
/// that cannot be made — so none of it reaches stderr: a thread inside `collecting` gets its messages
/// back as text (for a validation problem or a render report); messages from elsewhere are dropped.
final class LibraryLog: Sendable {
    static let shared = LibraryLog()

    /// Messages per thread (by pthread id) for threads inside `collecting`.
    private let buffers = Mutex<[UInt: [String]]>([:])

    /// The handlers GLib calls instead of printing; installed once per process.
    private static let installation: Void = {
        // Every level, so that nothing is printed; only warnings and worse are kept.
        let levels = GLogLevelFlags(rawValue: G_LOG_LEVEL_MASK.rawValue | G_LOG_FLAG_FATAL.rawValue
            | G_LOG_FLAG_RECURSION.rawValue)
        for domain in ["Pango", "GLib", "GLib-GObject", "GLib-GIO", "HarfBuzz"] {
            g_log_set_handler(domain, levels, { domain, level, message, _ in
                LibraryLog.shared.record(domain: domain, level: level, message: message)
            }, nil)
        }
    }()

    static func install() { _ = installation }

    private static var currentThread: UInt { UInt(pthread_self()) }

    /// Runs `body` and returns what the libraries logged on this thread meanwhile. Nests: an inner
    /// call gets its own messages, the outer one all of them.
    func collecting<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
        -> (result: Result, messages: [String])
    {
        Self.install()
        let thread = Self.currentThread
        let (outermost, start) = buffers.withLock { buffers -> (Bool, Int) in
            if let existing = buffers[thread] { return (false, existing.count) }
            buffers[thread] = []
            return (true, 0)
        }
        func finish() -> [String] {
            buffers.withLock { buffers in
                let messages = Array((buffers[thread] ?? []).dropFirst(start))
                if outermost { buffers[thread] = nil }
                return messages
            }
        }
        let result: Result
        do {
            result = try body()
        } catch {
            _ = finish()
            throw error
        }
        return (result, finish())
    }

    private func record(domain: UnsafePointer<gchar>?, level: GLogLevelFlags, message: UnsafePointer<gchar>?) {
        let severity: String
        if level.rawValue & G_LOG_LEVEL_ERROR.rawValue != 0 { severity = "ERROR" }
        else if level.rawValue & G_LOG_LEVEL_CRITICAL.rawValue != 0 { severity = "CRITICAL" }
        else if level.rawValue & G_LOG_LEVEL_WARNING.rawValue != 0 { severity = "WARNING" }
        else { return }  // messages, info and debug output are not problems
        let text = (domain.map { String(cString: $0) } ?? "GLib") + "-" + severity + ": "
            + (message.map { String(cString: $0) } ?? "")
        let thread = Self.currentThread
        buffers.withLock { buffers in
            buffers[thread]?.append(text)
        }
    }
}
