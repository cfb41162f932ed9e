import Foundation

/// Small RGB display profiles (ICC.1 version 2) made here, so no vendor's profile goes into tests:
/// sRGB's primaries and white, with tone curves either a plain gamma or sampled in `curvePoints`
/// steps (which is how a profile gets large enough to span several JPEG APP2 markers).
public enum ICCProfileMaker {
    public static func profile(description: String, curvePoints: Int = 0) -> [UInt8] {
        var tags: [(signature: String, data: [UInt8])] = [
            ("desc", textDescription(description)),
            ("cprt", Array("text".utf8) + [0, 0, 0, 0] + Array("No copyright, use freely".utf8) + [0]),
            ("wtpt", xyz(0.9505, 1.0, 1.0891)),
            ("rXYZ", xyz(0.4361, 0.2225, 0.0139)),
            ("gXYZ", xyz(0.3851, 0.7169, 0.0971)),
            ("bXYZ", xyz(0.1431, 0.0606, 0.7141)),
        ]
        for signature in ["rTRC", "gTRC", "bTRC"] { tags.append((signature, curve(points: curvePoints))) }

        let tableSize = 4 + 12 * tags.count
        var offset = 128 + tableSize
        var table = u32(tags.count), data: [UInt8] = []
        for tag in tags {
            table += Array(tag.signature.utf8) + u32(offset) + u32(tag.data.count)
            let padded = tag.data + [UInt8](repeating: 0, count: (4 - tag.data.count % 4) % 4)  // tags start on 4-byte boundaries
            data += padded
            offset += padded.count
        }
        let size = 128 + tableSize + data.count
        var header = u32(size) + [0, 0, 0, 0] + [0x02, 0x10, 0, 0]  // no preferred CMM; version 2.1
        header += Array("mntrRGB XYZ ".utf8)  // display class, RGB data, XYZ connection space
        header += [2025, 1, 1, 0, 0, 0].flatMap(u16)  // creation date
        header += Array("acsp".utf8) + [UInt8](repeating: 0, count: 24)  // platform, flags, maker, model, attributes
        header += u32(0)  // perceptual rendering intent
        header += s15Fixed16(0.9642) + s15Fixed16(1.0) + s15Fixed16(0.8249)  // the D50 connection-space white
        header += [UInt8](repeating: 0, count: 128 - header.count)
        return header + table + data
    }

    /// textDescriptionType (ICC.1:2001-04 §6.5.17): ASCII, then empty Unicode and ScriptCode parts.
    static func textDescription(_ text: String) -> [UInt8] {
        let ascii = Array(text.utf8.filter { $0 < 0x80 && $0 != 0 }) + [0]
        return Array("desc".utf8) + [0, 0, 0, 0] + u32(ascii.count) + ascii + u32(0) + u32(0) + [0, 0, 0]
            + [UInt8](repeating: 0, count: 67)
    }

    static func xyz(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
        Array("XYZ ".utf8) + [0, 0, 0, 0] + s15Fixed16(x) + s15Fixed16(y) + s15Fixed16(z)
    }

    /// curveType: gamma 2.2 for 0 or 1 points, else the sRGB curve sampled at `points` steps.
    static func curve(points: Int) -> [UInt8] {
        var bytes = Array("curv".utf8) + [0, 0, 0, 0]
        guard points > 1 else { return bytes + u32(1) + u16(0x0233) }  // u8Fixed8: 2.2
        bytes += u32(points)
        for index in 0..<points {
            let input = Double(index) / Double(points - 1)
            let linear = input <= 0.04045 ? input / 12.92 : pow((input + 0.055) / 1.055, 2.4)
            bytes += u16(Int((linear * 65535).rounded()))
        }
        return bytes
    }

    static func s15Fixed16(_ value: Double) -> [UInt8] { u32(Int((value * 65536).rounded())) }
    static func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    static func u16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
}
