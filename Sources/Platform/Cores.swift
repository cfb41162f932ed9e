#if canImport(Glibc)
import Glibc
#endif

/// The processor cores this process may use: those its CPU affinity allows (taskset, a Slurm
/// task's binding, a container's cpuset), fewer when its cgroup's CPU quota gives it less time
/// than that (`docker run --cpus 2`, systemd's CPUQuota=); at least 1. A job that starts one
/// worker a core starts this many, not one for every core of the machine.
public enum Cores {
    public static var count: Int {
        var cores = GNUCalls.affinityCPUCount ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        if let quota = CPUQuota.limit(cgroup: readSmall("/proc/self/cgroup") ?? "",
                                      mountInfo: readSmall("/proc/self/mountinfo") ?? "", read: readSmall) {
            cores = min(cores, quota)
        }
        return max(1, cores)
    }

    /// A file of /proc or of the cgroup file system (their sizes say 0 or 4096, whatever they hold).
    private static func readSmall(_ path: String) -> String? {
        (try? FileSystem.read(FilePath(path), limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// The CPUs a cgroup's quota allows: CPU time per period, as whole CPUs rounded up (a quota of
/// 1.5 CPUs can keep 2 busy part of the time). Pure functions of the files' text, so every case
/// is tested without a cgroup to set up.
enum CPUQuota {
    /// cgroup v2's `cpu.max`: "QUOTA PERIOD" in microseconds, QUOTA "max" for no limit.
    static func cpus(cpuMax: String) -> Int? {
        let fields = cpuMax.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]) else { return nil }
        return cpus(quota: quota, period: period)
    }

    /// cgroup v1's `cpu.cfs_quota_us` (-1 for no limit) and `cpu.cfs_period_us`.
    static func cpus(quota: String, period: String) -> Int? {
        // Each file holds one number on its first line.
        guard let quota = Int(quota.prefix { $0 != "\n" }), let period = Int(period.prefix { $0 != "\n" }) else { return nil }
        return cpus(quota: quota, period: period)
    }

    static func cpus(quota: Int, period: Int) -> Int? {
        guard quota > 0, period > 0 else { return nil }
        return max(1, (quota + period - 1) / period)
    }

    /// The smallest quota set on this process's cgroup or any cgroup above it, v2 and v1 alike;
    /// nil when none is. `cgroup` is /proc/self/cgroup, `mountInfo` /proc/self/mountinfo, and
    /// `read` gives a file's text (nil when there is no such file).
    static func limit(cgroup: String, mountInfo: String, read: (String) -> String?) -> Int? {
        var limits: [Int] = []
        for mount in mounts(mountInfo) {
            guard let path = path(in: cgroup, version2: mount.version2) else { continue }
            // The mount shows the hierarchy from its root down (a container sees its own cgroup as
            // the root): the process's folder is its path below that root.
            var relative = path
            if mount.root != "/" {
                guard path == mount.root || path.hasPrefix(mount.root + "/") else { continue }
                relative = String(path.dropFirst(mount.root.count))
            }
            var folder = mount.point + (relative == "/" ? "" : relative)
            while true {
                let found = mount.version2
                    ? read(folder + "/cpu.max").flatMap { cpus(cpuMax: $0) }
                    : read(folder + "/cpu.cfs_quota_us").flatMap { quota in
                        read(folder + "/cpu.cfs_period_us").flatMap { cpus(quota: quota, period: $0) }
                    }
                if let found { limits.append(found) }
                guard folder.count > mount.point.count, let slash = folder.lastIndex(of: "/") else { break }
                folder = String(folder[..<slash])
            }
        }
        return limits.min()
    }

    /// The cgroup file systems mounted: v2 ones, and v1 ones that hold the cpu controller.
    static func mounts(_ mountInfo: String) -> [(point: String, root: String, version2: Bool)] {
        var found: [(point: String, root: String, version2: Bool)] = []
        for line in mountInfo.split(separator: "\n") {
            // ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS [OPTIONAL…] - TYPE SOURCE SUPER-OPTIONS
            let fields = line.split(separator: " ")
            guard fields.count >= 7, let dash = fields[6...].firstIndex(of: "-"), dash + 1 < fields.count else { continue }
            let type = fields[dash + 1]
            let superOptions = dash + 3 < fields.count ? fields[dash + 3].split(separator: ",") : []
            if type == "cgroup2" {
                found.append((unescape(fields[4]), unescape(fields[3]), true))
            } else if type == "cgroup", superOptions.contains("cpu") {
                found.append((unescape(fields[4]), unescape(fields[3]), false))
            }
        }
        return found
    }

    /// This process's cgroup in the v2 hierarchy ("0::PATH") or in the v1 one holding the cpu
    /// controller ("N:cpu,cpuacct:PATH").
    static func path(in cgroup: String, version2: Bool) -> String? {
        for line in cgroup.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[2].hasPrefix("/") else { continue }
            if version2 ? (fields[0] == "0" && fields[1].isEmpty) : fields[1].split(separator: ",").contains("cpu") {
                return String(fields[2])
            }
        }
        return nil
    }

    /// mountinfo writes a space, tab, newline and backslash in a path as \040, \011, \012 and \134.
    static func unescape(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var bytes: [UInt8] = []
        let utf8 = Array(field.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "\\"), index + 3 < utf8.count,
               let code = UInt8(String(decoding: utf8[(index + 1)...(index + 3)], as: UTF8.self), radix: 8) {
                bytes.append(code)
                index += 4
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
