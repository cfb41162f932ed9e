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
