import Platform
import CV4L2

#if canImport(Glibc)
import Glibc
import Values
#endif

/// The real `VideoDeviceHost`: /dev, /dev/v4l/by-id, /sys/dev/char and CLOCK_MONOTONIC.
struct LinuxDeviceHost: VideoDeviceHost {
    func open(_ path: String, kind: NodeKind) -> Result<any VideoDeviceIO, Errno> {
        LibV4L2Device.open(path, kind: kind)
    }

    func nodes(prefix: String) -> [String] {
        Self.entries(of: "/dev")
            .compactMap { name -> (Int, String)? in
                guard name.hasPrefix(prefix), let number = Int(name.dropFirst(prefix.count)) else { return nil }
                return (number, "/dev/" + name)
            }
            .sorted { $0.0 < $1.0 }
            .map(\.1)
    }

    func stableNames() -> [String: String] {
        var names: [String: String] = [:]
        let folder = "/dev/v4l/by-id"
        for link in Self.entries(of: folder).sorted() {
            guard let target = realpath(folder + "/" + link, nil) else { continue }
            defer { free(target) }
            let resolved = String(cString: target)
            if names[resolved] == nil { names[resolved] = folder + "/" + link }
        }
        return names
    }

    func deviceNumber(of path: String) -> DeviceNumber? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFCHR else { return nil }
        // glibc's makedev layout (gnu_dev_major/minor are macros Swift cannot see).
        let device = UInt64(info.st_rdev)
        return DeviceNumber(major: UInt32(truncatingIfNeeded: (device >> 8) & 0xFFF | (device >> 32) & ~0xFFF),
                            minor: UInt32(truncatingIfNeeded: device & 0xFF | (device >> 12) & ~0xFF))
    }

    func path(of number: DeviceNumber) -> String? {
        // The kernel's uevent names the node (DEVNAME=v4l-subdev0) whatever udev called it.
        guard let file = fopen("/sys/dev/char/\(number.major):\(number.minor)/uevent", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).trimmingWhitespace
            if text.hasPrefix("DEVNAME=") { return "/dev/" + text.dropFirst("DEVNAME=".count) }
        }
        return nil
    }

    func now() -> Double { WallClock.monotonic() }

    func wallClock() -> (secondsSinceEpoch: Int, utcOffsetMinutes: Int) { WallClock.now() }

    private static func entries(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
