import CGPS
import Platform

#if canImport(Glibc)
import Glibc
#endif

/// Owns one libgps session with gpsd: `gps_open` + watch at creation, `gps_close` in `deinit`.
/// Used by one thread at a time (the receiver's).
final class GPSDConnection {
    /// What one message from gpsd said (a message carries one of these, or nothing we use).
    struct Report {
        /// A TPV report with a 2D or 3D position (time of arrival not yet filled in).
        var position: GPSFix?
        /// A TPV report saying the receiver has no fix.
        var noFix = false
        /// A SKY report: satellites used in the solution.
        var satellitesUsed: Int?
        /// An ATT report from a compass.
        var compassHeading: Double?
        /// A DEVICES/DEVICE report listing at least one receiver.
        var deviceSeen = false
    }

    private let gps: sc_gps
    private let data: UnsafeMutablePointer<gps_data_t>

    /// Connects to gpsd at `host`:`port` and asks it to stream JSON reports.
    init(host: String, port: String) throws(LocationError) {
        // Nothing listening (no gpsd, the usual case for --gps auto): said without loading libgps.
        if let refusal = TCPProbe.refusal(host: host, port: port) {
            throw .gpsdUnavailable(address: "\(host):\(port)", reason: refusal)
        }
        do { gps = try Self.library() } catch { throw .libraryMissing(error) }
        // Opened before `data` is set: a class whose init throws once it is whole runs deinit,
        // which would close and free a second time.
        let opening = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        opening.initialize(to: gps_data_t())
        let opened = gps.gps_open(host, port, opening)
        guard opened == 0 else {
            let reason = Self.reason(opened)
            opening.deallocate()
            throw .gpsdUnavailable(address: "\(host):\(port)", reason: reason)
        }
        guard gps.gps_stream(opening, UInt32(WATCH_ENABLE | WATCH_JSON), nil) == 0 else {
            let reason = Self.reason(-1)
            _ = gps.gps_close(opening)
            opening.deallocate()
            throw .gpsdUnavailable(address: "\(host):\(port)", reason: reason)
        }
        data = opening
    }

    /// libgps, opened when gpsd first answers.
    static func library() throws(MissingLibrary) -> sc_gps {
        var reason: UnsafePointer<CChar>?
        guard let table = sc_gps_load(&reason) else {
            throw MissingLibrary(feature: "live GPS", packages: ["libgps28"], reason: reason)
        }
        return table.pointee
    }

    deinit {
        _ = gps.gps_stream(data, UInt32(WATCH_DISABLE), nil)
        _ = gps.gps_close(data)
        data.deallocate()
    }

    /// Whether a message is waiting, after at most `microseconds`.
    func waiting(microseconds: Int32) -> Bool { gps.gps_waiting(data, microseconds) }

    /// Reads one message. Throws when gpsd went away or sent what libgps cannot read.
    func read() throws(LocationError) -> Report {
        data.pointee.set = 0
        let count = gps.gps_read(data, nil, 0)
        guard count >= 0 else { throw .gpsdLost(reason: "gpsd closed the connection") }
        var report = Report()
        let set = data.pointee.set
        let fix = data.pointee.fix
        if set & MODE_SET != 0 {
            if fix.mode >= MODE_2D && fix.latitude.isFinite && fix.longitude.isFinite
                && abs(fix.latitude) <= 90 && abs(fix.longitude) <= 180 {
                var error = Self.finite(fix.eph)
                if error == nil, let x = Self.finite(fix.epx), let y = Self.finite(fix.epy) { error = (x * x + y * y).squareRoot() }
                let seconds = fix.time.tv_sec == 0 && fix.time.tv_nsec == 0
                    ? nil : Double(fix.time.tv_sec) + Double(fix.time.tv_nsec) / 1e9
                report.position = GPSFix(
                    latitude: fix.latitude, longitude: fix.longitude,
                    altitude: fix.mode >= MODE_3D ? Self.finite(fix.altMSL) ?? Self.finite(fix.altHAE) : nil,
                    horizontalError: error.flatMap { $0 >= 0 ? $0 : nil },
                    track: Self.finite(fix.track).map(Self.degrees),
                    speed: Self.finite(fix.speed).flatMap { $0 >= 0 ? $0 : nil },
                    gpsTime: seconds,
                    receivedAt: 0, receivedMonotonic: 0)
            } else if fix.mode == MODE_NO_FIX {
                report.noFix = true
            }
        }
        // A SKY report before the receiver's GSA says 0 used: that is "not known yet", not a count.
        if set & SATELLITE_SET != 0, data.pointee.satellites_used > 0 {
            report.satellitesUsed = Int(data.pointee.satellites_used)
        }
        if set & ATTITUDE_SET != 0, let heading = Self.finite(data.pointee.attitude.heading) {
            report.compassHeading = Self.degrees(heading)
        }
        if set & (DEVICELIST_SET | DEVICE_SET) != 0, data.pointee.devices.ndevices > 0 || set & DEVICE_SET != 0 {
            report.deviceSeen = true
        }
        return report
    }

    private static func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }

    /// An angle in 0 ..< 360.
    private static func degrees(_ value: Double) -> Double {
        let turned = value.truncatingRemainder(dividingBy: 360)
        return turned < 0 ? turned + 360 : turned
    }

    /// libgps's words for a failed call: its network codes (netlib's NL_*), else errno's.
    private static func reason(_ code: Int32) -> String {
        let number = errno
        let system = number != 0 ? strerror(number).map { String(cString: $0).lowercased() } : nil
        switch code {
        case -1: return "no such service"
        case -2: return "no such host"
        case -4, -5: return "cannot make a socket" + (system.map { ": \($0)" } ?? "")
        case -6: return system ?? "cannot connect"
        default: return system ?? "error \(code)"
        }
    }
}
