import Glibc
import Synchronization
import Testing
@testable import Platform

@Suite struct CoresTests {
    @Test("cgroup v2 cpu.max: no limit, whole CPUs, a fraction rounded up, nonsense ignored", arguments: [
        ("max 100000\n", nil), ("max 100000", nil),
        ("200000 100000\n", 2), ("150000 100000\n", 2), ("100000 100000\n", 1), ("50000 100000\n", 1), ("1000 100000\n", 1),
        ("6400000 100000\n", 64), ("300000 50000\n", 6),
        ("", nil), ("max\n", nil), ("0 100000\n", nil), ("-1 100000\n", nil), ("100000 0\n", nil), ("two 100000\n", nil),
        ("100000 100000 7\n", nil),
    ] as [(String, Int?)])
    func cpuMax(text: String, cpus: Int?) {
        #expect(CPUQuota.cpus(cpuMax: text) == cpus)
    }

    @Test("cgroup v1 cfs quota and period", arguments: [
        ("-1\n", "100000\n", nil), ("200000\n", "100000\n", 2), ("250000\n", "100000\n", 3), ("50000\n", "100000\n", 1),
        ("", "100000\n", nil), ("200000\n", "", nil), ("200000\n", "0\n", nil),
    ] as [(String, String, Int?)])
    func cfsQuota(quota: String, period: String, cpus: Int?) {
        #expect(CPUQuota.cpus(quota: quota, period: period) == cpus)
    }

    static let unified = "35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate\n"
    static let hybrid = """
        24 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
        30 25 0:26 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:12 - cgroup cgroup rw,cpu,cpuacct
        31 25 0:27 / /sys/fs/cgroup/cpuset rw,nosuid,nodev,noexec,relatime shared:13 - cgroup cgroup rw,cpuset
        32 25 0:28 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:14 - cgroup2 cgroup2 rw

        """

    @Test("the smallest quota on the way up from this process's cgroup; missing files are no limit")
    func limit() {
        let v2 = "0::/user.slice/job\n"
        func files(_ table: [String: String]) -> (String) -> String? { { table[$0] } }
        // None set anywhere, or no files at all.
        #expect(CPUQuota.limit(cgroup: v2, mountInfo: Self.unified, read: files([:])) == nil)
        #expect(CPUQuota.limit(cgroup: v2, mountInfo: Self.unified,
                               read: files(["/sys/fs/cgroup/user.slice/job/cpu.max": "max 100000\n"])) == nil)
        // Set on the process's own cgroup, or only on a parent (a Slurm job's step inherits the job's).
        #expect(CPUQuota.limit(cgroup: v2, mountInfo: Self.unified,
                               read: files(["/sys/fs/cgroup/user.slice/job/cpu.max": "200000 100000\n"])) == 2)
        #expect(CPUQuota.limit(cgroup: v2, mountInfo: Self.unified, read: files([
            "/sys/fs/cgroup/user.slice/job/cpu.max": "max 100000\n", "/sys/fs/cgroup/user.slice/cpu.max": "150000 100000\n",
        ])) == 2)
        #expect(CPUQuota.limit(cgroup: v2, mountInfo: Self.unified, read: files([
            "/sys/fs/cgroup/user.slice/job/cpu.max": "800000 100000\n", "/sys/fs/cgroup/user.slice/cpu.max": "300000 100000\n",
        ])) == 3)
        // A file outside the process's line of cgroups does not count.
        #expect(CPUQuota.limit(cgroup: v2, mountInfo: Self.unified,
                               read: files(["/sys/fs/cgroup/other/cpu.max": "100000 100000\n"])) == nil)
        // No cgroup file system mounted, or nothing in /proc.
        #expect(CPUQuota.limit(cgroup: v2, mountInfo: "", read: files(["/sys/fs/cgroup/user.slice/job/cpu.max": "1 1"])) == nil)
        #expect(CPUQuota.limit(cgroup: "", mountInfo: Self.unified, read: files(["/sys/fs/cgroup/cpu.max": "100000 100000"])) == nil)
    }

    @Test("cgroup v1: the hierarchy that holds the cpu controller (not cpuset), quota and period together")
    func limitVersion1() {
        let cgroup = "12:cpuset:/\n4:cpu,cpuacct:/slurm/uid_1000/job_7\n1:name=systemd:/\n0::/\n"
        let folder = "/sys/fs/cgroup/cpu,cpuacct/slurm/uid_1000/job_7"
        #expect(CPUQuota.limit(cgroup: cgroup, mountInfo: Self.hybrid, read: { [
            folder + "/cpu.cfs_quota_us": "200000\n", folder + "/cpu.cfs_period_us": "100000\n",
        ][$0] }) == 2)
        #expect(CPUQuota.limit(cgroup: cgroup, mountInfo: Self.hybrid, read: { [
            folder + "/cpu.cfs_quota_us": "-1\n", folder + "/cpu.cfs_period_us": "100000\n",
            "/sys/fs/cgroup/cpu,cpuacct/slurm/cpu.cfs_quota_us": "400000\n", "/sys/fs/cgroup/cpu,cpuacct/slurm/cpu.cfs_period_us": "100000\n",
        ][$0] }) == 4)
        // A quota without its period says nothing.
        #expect(CPUQuota.limit(cgroup: cgroup, mountInfo: Self.hybrid, read: { [folder + "/cpu.cfs_quota_us": "200000\n"][$0] }) == nil)
    }

    @Test("a container without its own cgroup namespace: the mount's root is the container's cgroup")
    func mountRoot() {
        let mountInfo = "40 30 0:30 /docker/abc /sys/fs/cgroup ro,nosuid - cgroup2 cgroup2 rw\n"
        #expect(CPUQuota.limit(cgroup: "0::/docker/abc\n", mountInfo: mountInfo,
                               read: { ["/sys/fs/cgroup/cpu.max": "200000 100000\n"][$0] }) == 2)
        #expect(CPUQuota.limit(cgroup: "0::/docker/abc/inner\n", mountInfo: mountInfo,
                               read: { ["/sys/fs/cgroup/cpu.max": "200000 100000\n"][$0] }) == 2)
        // Not below the mount's root (the process is outside what is mounted): nothing to read.
        #expect(CPUQuota.limit(cgroup: "0::/elsewhere\n", mountInfo: mountInfo,
                               read: { ["/sys/fs/cgroup/cpu.max": "200000 100000\n"][$0] }) == nil)
    }

    @Test("mountinfo's escaped characters in a mount point")
    func escapes() {
        #expect(CPUQuota.unescape("/mnt/with\\040space") == "/mnt/with space")
        #expect(CPUQuota.unescape("/plain") == "/plain")
        #expect(CPUQuota.mounts("41 30 0:31 / /mnt/my\\040cgroup rw - cgroup2 none rw\n").map(\.point) == ["/mnt/my cgroup"])
    }

    @Test("at least 1, at most the machine's cores")
    func bounds() {
        #expect(Cores.count >= 1)
        #expect(Cores.count <= Int(sysconf(Int32(_SC_NPROCESSORS_CONF))))
    }

    @Test("a thread that taskset pins to CPU 0 counts 1 core (a new thread inherits the mask)",
          .enabled(if: Self.hasTaskset, "taskset (util-linux) is not installed"))
    func pinned() throws {
        let counted = Mutex<(before: Int, pinned: Int, child: Int)?>(nil)
        let failure = Mutex<String?>(nil)
        try Threads.run(count: 1) { _ in
            let before = Cores.count
            // /proc/thread-self is "PID/task/TID": taskset -p takes a thread's id.
            guard let link = try? FileSystem.readLink("/proc/thread-self"), let tid = link.split(separator: "/").last else {
                return failure.withLock { $0 = "no /proc/thread-self" }
            }
            do {
                let pid = try Subprocess.spawn(["taskset", "-p", "-c", "0", String(tid)], output: "/dev/null")
                let ended = try Subprocess.wait(pid)
                guard ended.succeeded else { return failure.withLock { $0 = "taskset \(ended)" } }
                let child = Mutex(0)
                try Threads.run(count: 1) { _ in child.withLock { $0 = Cores.count } }
                counted.withLock { $0 = (before, Cores.count, child.withLock { $0 }) }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
        #expect(failure.withLock { $0 } == nil)
        let result = try #require(counted.withLock { $0 })
        #expect(result.pinned == 1)
        #expect(result.child == 1)
        #expect(result.before >= 1)
    }

    static let hasTaskset = ["/usr/bin/taskset", "/bin/taskset"].contains { FileSystem.exists(FilePath($0)) }
}
