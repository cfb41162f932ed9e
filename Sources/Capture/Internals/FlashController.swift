import CV4L2
import Platform

/// Drives a flash LED through the V4L2 flash controls on its node (the video node or a
/// `/dev/v4l-subdevN`): torch on and off, and a software strobe with timeout and fault checks.
/// A lit LED registers a cleanup with `Signals`, so a signal cannot leave it on: closing the node
/// does not switch it off.
final class FlashController {
    let panel: ControlPanel
    let canFlash: Bool
    let canTorch: Bool
    private var lit: Signals.Registration?
    private let signals: Signals

    /// Nil when the node has no LED mode control.
    init?(panel: ControlPanel, signals: Signals = .shared) {
        guard let mode = panel.control(sc_CID_FLASH_LED_MODE) else { return nil }
        self.panel = panel
        self.signals = signals
        // A torch-only LED hides the Flash entry from the menu.
        canFlash = mode.menu.contains { $0.index == Int64(sc_FLASH_LED_MODE_FLASH) }
        canTorch = mode.menu.contains { $0.index == Int64(sc_FLASH_LED_MODE_TORCH) }
    }

    deinit { off() }

    var path: String { panel.path }

    /// Whether the LED may be on (torch lit or flash armed).
    var isLit: Bool { lit != nil }

    /// Lights the torch, or switches the LED off.
    func torch(_ on: Bool) throws(CaptureError) {
        if on {
            try checkFaults()
            markLit()
            do { try panel.set(sc_CID_FLASH_LED_MODE, Int64(sc_FLASH_LED_MODE_TORCH)) } catch {
                off()
                throw error
            }
        } else {
            try panel.set(sc_CID_FLASH_LED_MODE, Int64(sc_FLASH_LED_MODE_NONE))
            markDark()
        }
    }

    /// Puts the LED in flash mode with a software strobe, lasting about `duration` seconds
    /// (clamped to what the LED allows). Throws when the LED reports a fault.
    func arm(duration: Double) throws(CaptureError) {
        try checkFaults()
        markLit()
        do {
            try panel.set(sc_CID_FLASH_LED_MODE, Int64(sc_FLASH_LED_MODE_FLASH))
            if panel.control(sc_CID_FLASH_STROBE_SOURCE) != nil {
                try panel.set(sc_CID_FLASH_STROBE_SOURCE, Int64(sc_FLASH_STROBE_SOURCE_SOFTWARE))
            }
            if let timeout = panel.control(sc_CID_FLASH_TIMEOUT) {
                // The timeout control is in microseconds.
                let wanted = Int64(duration * 1_000_000)
                let step = min(max(1, timeout.step), 1_000_000)
                let value = min(timeout.maximum, max(timeout.minimum, (wanted + step - 1) / step * step))
                try panel.set(sc_CID_FLASH_TIMEOUT, value)
            }
        } catch {
            off()
            throw error
        }
    }

    /// Fires the armed flash.
    func strobe() throws(CaptureError) {
        if panel.control(sc_CID_FLASH_READY) != nil, panel.value(sc_CID_FLASH_READY) == 0 {
            throw .flashFault(path, faults: ["not ready (still charging)"])
        }
        try panel.set(sc_CID_FLASH_STROBE, 1)
    }

    /// Ends a strobe, switches the LED off and returns the faults it reported, if any.
    func finishStrobe() -> [String] {
        if panel.control(sc_CID_FLASH_STROBE_STOP) != nil {
            try? panel.set(sc_CID_FLASH_STROBE_STOP, 1)
        }
        let found = faults()
        off()
        return found
    }

    /// Switches the LED off, whatever it was doing; never throws (used on every exit path).
    func off() {
        guard lit != nil else { return }
        try? panel.set(sc_CID_FLASH_LED_MODE, Int64(sc_FLASH_LED_MODE_NONE))
        markDark()
    }

    /// The faults the LED reports now (reading the fault control also clears it on most drivers).
    func faults() -> [String] {
        guard panel.control(sc_CID_FLASH_FAULT) != nil, let bits = panel.value(sc_CID_FLASH_FAULT) else { return [] }
        return Self.faultNames.filter { bits & Int64($0.bit) != 0 }.map(\.name)
    }

    private func checkFaults() throws(CaptureError) {
        let found = faults()
        if !found.isEmpty { throw .flashFault(path, faults: found) }
    }

    private static let faultNames: [(bit: Int, name: String)] = [
        (sc_FLASH_FAULT_OVER_VOLTAGE, "over-voltage"), (sc_FLASH_FAULT_TIMEOUT, "timeout"),
        (sc_FLASH_FAULT_OVER_TEMPERATURE, "over-temperature"), (sc_FLASH_FAULT_SHORT_CIRCUIT, "short circuit"),
        (sc_FLASH_FAULT_OVER_CURRENT, "over-current"), (sc_FLASH_FAULT_INDICATOR, "indicator LED fault"),
        (sc_FLASH_FAULT_UNDER_VOLTAGE, "under-voltage"), (sc_FLASH_FAULT_INPUT_VOLTAGE, "input voltage too low"),
        (sc_FLASH_FAULT_LED_OVER_TEMPERATURE, "LED over-temperature"),
    ]

    private func markLit() {
        guard lit == nil else { return }
        let switchOff = SwitchOff(node: panel.node)
        lit = signals.onTermination(.lights) { switchOff.run() }
    }

    private func markDark() {
        lit?.cancel()
        lit = nil
    }
}

/// The LED-off call a signal handler makes from another thread while the main thread may be
/// inside a device call; the kernel serialises control access, so sharing the node is safe.
private struct SwitchOff: @unchecked Sendable {
    let node: V4L2Node
    func run() { try? node.set(sc_CID_FLASH_LED_MODE, to: Int64(sc_FLASH_LED_MODE_NONE)) }
}
