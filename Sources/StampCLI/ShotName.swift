import Capture
import Foundation

/// Names of shot photos: `20261129-142233-0001.jpg`, the capture's local time and a running number.
enum ShotName {
    static func make(_ metadata: CaptureMetadata, number: Int) -> String {
        // "2026:11:29 14:22:33" → "20261129-142233"
        let stamp = metadata.exifDateTime.filter { $0 != ":" }.replacingOccurrences(of: " ", with: "-")
        let digits = String(number)
        return stamp + "-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".jpg"
    }

    /// One more than the highest number of a shot already in `folder`, so numbers keep counting up.
    static func nextNumber(in folder: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let highest = names.compactMap { name -> Int? in
            let parts = name.split(separator: "-")
            guard parts.count == 3, parts[0].count == 8, parts[1].count == 6, parts[2].hasSuffix(".jpg") else { return nil }
            return Int(parts[2].dropLast(4))
        }.max() ?? 0
        return highest + 1
    }
}
