import Platform
import CV4L2

extension V4L2Node {
    /// Every enabled control, enumerated with QUERY_EXT_CTRL + NEXT_CTRL, with menus and current values.
    func controls() -> [ControlInfo] {
        var found: [ControlInfo] = []
        var nextID = sc_CTRL_FLAG_NEXT_CTRL
        for _ in 0..<1024 {
            var query = v4l2_query_ext_ctrl()
            query.id = nextID
            guard (try? io.call(sc_VIDIOC_QUERY_EXT_CTRL, &query)) != nil else { break }
            nextID = query.id | sc_CTRL_FLAG_NEXT_CTRL
            if query.flags & UInt32(sc_CTRL_FLAG_DISABLED) != 0 || query.type == UInt32(sc_CTRL_TYPE_CTRL_CLASS) {
                continue
            }
            found.append(control(from: query))
        }
        return found
    }

    private func control(from query: v4l2_query_ext_ctrl) -> ControlInfo {
        let kind = Self.kind(query.type)
        var info = ControlInfo(
            id: query.id, name: cText(query.name), kind: kind, minimum: query.minimum, maximum: query.maximum,
            step: Int64(clamping: query.step), defaultValue: query.default_value,
            readOnly: query.flags & UInt32(sc_CTRL_FLAG_READ_ONLY) != 0,
            inactive: query.flags & UInt32(sc_CTRL_FLAG_INACTIVE) != 0, node: path)
        if kind == .menu || kind == .integerMenu {
            info.menu = menu(id: query.id, range: query.minimum...max(query.minimum, query.maximum), integers: kind == .integerMenu)
        }
        let numeric: [ControlInfo.Kind] = [.integer, .boolean, .menu, .integerMenu, .integer64, .bitmask]
        if numeric.contains(kind), query.flags & UInt32(sc_CTRL_FLAG_WRITE_ONLY) == 0 {
            info.value = try? value(of: query.id, kind: kind)
        }
        return info
    }

    static func kind(_ type: UInt32) -> ControlInfo.Kind {
        switch Int(type) {
        case sc_CTRL_TYPE_INTEGER: return .integer
        case sc_CTRL_TYPE_BOOLEAN: return .boolean
        case sc_CTRL_TYPE_MENU: return .menu
        case sc_CTRL_TYPE_INTEGER_MENU: return .integerMenu
        case sc_CTRL_TYPE_BUTTON: return .button
        case sc_CTRL_TYPE_INTEGER64: return .integer64
        case sc_CTRL_TYPE_STRING: return .string
        case sc_CTRL_TYPE_BITMASK: return .bitmask
        case sc_CTRL_TYPE_RECT: return .rectangle
        default: return .other(type)
        }
    }

    /// The entries of a menu control; drivers may leave holes (QUERYMENU fails for those).
    private func menu(id: UInt32, range: ClosedRange<Int64>, integers: Bool) -> [ControlInfo.MenuItem] {
        var items: [ControlInfo.MenuItem] = []
        for index in range.prefix(256) {
            var entry = v4l2_querymenu()
            entry.id = id
            entry.index = UInt32(truncatingIfNeeded: index)
            guard (try? io.call(sc_VIDIOC_QUERYMENU, &entry)) != nil else { continue }
            items.append(.init(index: index, label: integers ? String(entry.value) : cText(entry.name)))
        }
        return items
    }

    /// A control's current value (64-bit controls read whole, bitmasks as unsigned).
    func value(of id: UInt32, kind: ControlInfo.Kind) throws(Errno) -> Int64 {
        var control = v4l2_ext_control()
        control.id = id
        try extControls(sc_VIDIOC_G_EXT_CTRLS, &control)
        switch kind {
        case .integer64: return control.value64
        case .bitmask: return Int64(UInt32(bitPattern: control.value))
        default: return Int64(control.value)
        }
    }

    /// Sets one control (S_EXT_CTRLS, so flash and camera class controls work the same as user ones).
    func set(_ id: UInt32, to value: Int64, wide: Bool = false) throws(Errno) {
        var control = v4l2_ext_control()
        control.id = id
        if wide { control.value64 = value } else { control.value = Int32(clamping: value) }
        try extControls(sc_VIDIOC_S_EXT_CTRLS, &control)
    }

    /// Sets a rectangle control (UVC region of interest).
    func set(_ id: UInt32, rectangle: (left: Int32, top: Int32, width: UInt32, height: UInt32)) throws(Errno) {
        var rect = v4l2_rect(left: rectangle.left, top: rectangle.top, width: rectangle.width, height: rectangle.height)
        var control = v4l2_ext_control()
        control.id = id
        control.size = UInt32(MemoryLayout<v4l2_rect>.size)
        let status: Errno? = withUnsafeMutablePointer(to: &rect) { pointer in
            control.ptr = UnsafeMutableRawPointer(pointer)
            do throws(Errno) { try extControls(sc_VIDIOC_S_EXT_CTRLS, &control) } catch { return error }
            return nil
        }
        if let status { throw status }
    }

    private func extControls(_ request: UInt, _ control: inout v4l2_ext_control) throws(Errno) {
        let failure: Errno? = withUnsafeMutablePointer(to: &control) { pointer in
            var controls = v4l2_ext_controls()
            controls.which = UInt32(sc_CTRL_WHICH_CUR_VAL)
            controls.count = 1
            controls.controls = pointer
            do throws(Errno) { try io.call(request, &controls) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }
}
