/// `value` in decimal with leading zeros up to `width` digits: `zeroPadded(7, 2)` is `07`.
public func zeroPadded(_ value: Int, _ width: Int = 2) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// `value` with exactly `places` digits after the point (`fixedPoint(-2.5, places: 2)` is `-2.50`),
/// the same in every locale. A value too large for that many places is written as Swift writes it.
public func fixedPoint(_ value: Double, places: Int) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    // Int(scaled) would trap above Int.max, and a Double has no whole digits to spare past 2^53.
    guard scaled < 9e15 else { return String(value) }
    let whole = Int(scaled) / Int(scale), fraction = Int(scaled) % Int(scale)
    let sign = value < 0 && scaled > 0 ? "-" : ""
    return places == 0 ? sign + String(whole) : sign + String(whole) + "." + zeroPadded(fraction, places)
}

/// `text` as a number in plain decimal (`-12`, `48.8584`, `.5`): an optional sign, digits and at
/// most one point. Hex (`0x10`), exponents, `inf` and `nan` are refused, which `Double(_:)` accepts:
/// every number a user types is read by this one rule.
public func decimalNumber(_ text: some StringProtocol) -> Double? {
    var digits = 0, points = 0
    for (offset, character) in text.enumerated() {
        switch character {
        case "0"..."9": digits += 1
        case ".": points += 1
        case "+" where offset == 0, "-" where offset == 0: continue
        default: return nil
        }
    }
    guard digits > 0, points <= 1 else { return nil }
    return Double(String(text))
}
