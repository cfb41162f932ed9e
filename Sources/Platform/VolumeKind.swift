/// The kind of file system a path is on, as far as how stampcam writes there depends on it.
public enum VolumeKind: Sendable, Equatable {
    /// The kernel's vfat (SD cards, USB sticks).
    case fat
    /// The kernel's exFAT (larger SD cards).
    case exfat
    /// A file system in user space (FUSE FAT and exFAT, sshfs …).
    case fuse
    /// A file system on another machine (NFS, SMB, Ceph, Lustre …).
    case network
    /// A disk of this machine with a Unix file system (ext4, btrfs, xfs, tmpfs …).
    case local

    /// What statfs(2) says of the file system holding `path`; nil when it cannot be asked.
    public init?(of path: FilePath) {
        guard let magic = path.withCString({ GNUCalls.fileSystemMagic($0) }) else { return nil }
        self.init(magic: magic & 0xffff_ffff)
    }

    /// The file system whose statfs magic number is `magic` (linux/magic.h).
    init(magic: UInt64) {
        switch magic {
        case 0x4d44: self = .fat
        case 0x2011_bab0: self = .exfat
        case 0x6573_5546: self = .fuse
        // NFS, SMB, CIFS, SMB2, Ceph, 9P, AFS, Lustre
        case 0x6969, 0x517b, 0xff53_4d42, 0xfe53_4d42, 0x00c3_6400, 0x0102_1997, 0x5346_414f, 0x0bd0_0bd0: self = .network
        default: self = .local
        }
    }
}
