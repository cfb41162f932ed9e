import Values

/// When a fix is good enough to stamp: not older than `maxAge` seconds and not less accurate than
/// `minAccuracy` metres (`--gps-max-age`, `--gps-min-accuracy`).
public struct FixRules: Sendable, Equatable {
    public var maxAge: Double
    public var minAccuracy: Double
    /// How far GPS time and the clock may differ before the viewfinders warn.
    public var clockTolerance: Double

    public static let defaultMaxAge = 10.0
    public static let defaultMinAccuracy = 50.0

    public init(maxAge: Double = FixRules.defaultMaxAge, minAccuracy: Double = FixRules.defaultMinAccuracy,
                clockTolerance: Double = 2) {
        self.maxAge = maxAge
        self.minAccuracy = minAccuracy
        self.clockTolerance = clockTolerance
    }

    /// What `reading` is worth at monotonic time `now`. A fix without an error estimate cannot be
    /// shown to be accurate enough, so it is not used either (gpsd derives the estimate from the
    /// receiver's DOP; only the very first report of a session may come without it).
    public func judge(_ reading: FixReading, now: Double) -> FixStatus {
        guard let fix = reading.fix else {
            return .unusable(reading.connected ? .noFixYet : .notConnected(reading.problem ?? "not connected"))
        }
        let age = now - fix.receivedMonotonic
        if age > maxAge { return .unusable(.stale(age: age, limit: maxAge)) }
        guard let error = fix.horizontalError, error.isFinite else { return .unusable(.accuracyUnknown) }
        if error > minAccuracy { return .unusable(.inaccurate(metres: error, limit: minAccuracy)) }
        return .usable(fix)
    }

    /// The warning when GPS time and the clock disagree by more than `clockTolerance`, else nil.
    public func clockWarning(_ fix: GPSFix) -> String? {
        guard let difference = fix.clockDifference, abs(difference) > clockTolerance else { return nil }
        let amount = Self.duration(abs(difference))
        return "the clock is \(amount) \(difference > 0 ? "behind" : "ahead of") GPS time; "
            + "the stamp shows the clock's time ({gps_time} shows GPS time)"
    }

    /// `3 s`, `4 min 10 s`, `2 h 5 min`, `3 days`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(clamping: min(seconds, 1e12))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min" + (whole % 60 == 0 ? "" : " \(whole % 60) s") }
        if whole < 86_400 { return "\(whole / 3600) h" + (whole % 3600 / 60 == 0 ? "" : " \(whole % 3600 / 60) min") }
        return "\(whole / 86_400) days"
    }
}

/// A fix to stamp, or why there is none.
public enum FixStatus: Sendable, Equatable {
    case usable(GPSFix)
    case unusable(FixProblem)

    public var fix: GPSFix? {
        if case .usable(let fix) = self { return fix }
        return nil
    }
}

/// Why the latest fix is not stamped.
public enum FixProblem: Sendable, Equatable, CustomStringConvertible {
    /// gpsd does not answer (the reason in words).
    case notConnected(String)
    /// gpsd answers but has sent no position yet.
    case noFixYet
    /// The last position is older than the limit.
    case stale(age: Double, limit: Double)
    /// The last position's error estimate is larger than the limit.
    case inaccurate(metres: Double, limit: Double)
    /// The last position came without an error estimate.
    case accuracyUnknown

    public var description: String {
        switch self {
        case .notConnected(let reason): return "no GPS fix: gpsd does not answer (\(reason))"
        case .noFixYet: return "no GPS fix yet"
        case .stale(let age, let limit):
            return "no GPS fix: the last one is \(FixRules.duration(age)) old (limit \(FixRules.duration(limit)))"
        case .inaccurate(let metres, let limit):
            return "no usable GPS fix: it is only accurate to \(Self.metres(metres.rounded())) (limit \(Self.metres(limit)))"
        case .accuracyUnknown: return "no usable GPS fix: the receiver gives no accuracy for it"
        }
    }

    /// The kind of problem, without its numbers: a viewfinder tells a change of kind once.
    public var kind: String {
        switch self {
        case .notConnected: return "not connected"
        case .noFixYet: return "no fix"
        case .stale: return "stale"
        case .inaccurate: return "inaccurate"
        case .accuracyUnknown: return "accuracy unknown"
        }
    }

    static func metres(_ value: Double) -> String {
        abs(value) < 1e9 ? Int(exactly: value).map { "\($0) m" } ?? "\(value) m" : "\(value) m"
    }
}
