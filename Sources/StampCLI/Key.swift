/// A key press, decoded from the bytes a terminal sends in raw mode.
enum Key: Equatable {
    case character(Character)
    case enter, space, escape, left, right, up, down, backspace, interrupt

    /// Decodes one read's worth of bytes. A lone ESC is Escape; ESC [ C and friends are arrows.
    static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x1B:
                guard index < bytes.count, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O") else {
                    keys.append(.escape)
                    continue
                }
                // A control sequence runs to its final byte (a letter or '~'); only arrows mean something.
                index += 1
                var final: UInt8 = 0
                while index < bytes.count {
                    let next = bytes[index]
                    index += 1
                    if (0x40...0x7E).contains(next) { final = next; break }
                }
                switch final {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                case UInt8(ascii: "C"): keys.append(.right)
                case UInt8(ascii: "D"): keys.append(.left)
                default: break
                }
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x20: keys.append(.space)
            case 0x03: keys.append(.interrupt)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x21...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
            default: break
            }
        }
        return keys
    }
}
