import Foundation

/// The seed inputs of the fuzz targets (Tests/Fuzz) that are made by our own code rather than
/// written by hand: `make fuzz` runs the tests named FuzzSeedTests with `STAMPCAM_FUZZ_SEEDS` set
/// to a folder, and each writes its inputs into the folder of its target there (`exif/canon` …).
/// Without it they only check that each seed is an input its parser accepts.
public enum FuzzSeeds {
    public static func write(_ bytes: [UInt8], target: String, name: String) throws {
        guard let folder = ProcessInfo.processInfo.environment["STAMPCAM_FUZZ_SEEDS"], !folder.isEmpty else { return }
        try TestFiles.write(bytes, to: folder + "/" + target + "/" + name, creatingFolders: true)
    }
}
