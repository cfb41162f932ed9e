/// One camera control as the driver describes it, with its current value.
public struct ControlInfo: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case integer, boolean, menu, integerMenu, button, integer64, string, bitmask, rectangle
        case other(UInt32)

        public var name: String {
            switch self {
            case .integer: return "int"
            case .boolean: return "bool"
            case .menu: return "menu"
            case .integerMenu: return "intmenu"
            case .button: return "button"
            case .integer64: return "int64"
            case .string: return "string"
            case .bitmask: return "bitmask"
            case .rectangle: return "rect"
            case .other(let code): return "type \(code)"
            }
        }
    }

    public var id: UInt32
    /// The driver's name, e.g. "Exposure, Auto".
    public var name: String
    public var kind: Kind
    public var minimum: Int64
    public var maximum: Int64
    public var step: Int64
    public var defaultValue: Int64
    /// The current value; nil for write-only controls (buttons) and values that are not numbers.
    public var value: Int64?
    /// Menu entries (index and label) the driver offers; integer menus show the number as label.
    public var menu: [MenuItem]
    public var readOnly: Bool
    /// Set, but currently without effect (e.g. exposure time while auto exposure is on).
    public var inactive: Bool
    /// The node it lives on (the video node, or a flash subdevice).
    public var node: String

    public struct MenuItem: Sendable, Equatable {
        public var index: Int64
        public var label: String
        public init(index: Int64, label: String) {
            self.index = index
            self.label = label
        }
    }

    public init(id: UInt32, name: String, kind: Kind, minimum: Int64 = 0, maximum: Int64 = 0, step: Int64 = 1,
                defaultValue: Int64 = 0, value: Int64? = nil, menu: [MenuItem] = [], readOnly: Bool = false,
                inactive: Bool = false, node: String = "") {
        self.id = id
        self.name = name
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.value = value
        self.menu = menu
        self.readOnly = readOnly
        self.inactive = inactive
        self.node = node
    }

    /// The name as `--set` takes it: lower case, words joined by `_` ("Exposure, Auto" → "exposure_auto").
    public var key: String {
        var key = ""
        for character in name.lowercased() {
            if character.isLetter || character.isNumber {
                key.append(character)
            } else if !key.isEmpty && key.last != "_" {
                key.append("_")
            }
        }
        return key.hasSuffix("_") ? String(key.dropLast()) : key
    }

    /// The current value as text: the menu label for menus.
    public var valueText: String? {
        guard let value else { return nil }
        if kind == .menu || kind == .integerMenu, let item = menu.first(where: { $0.index == value }) {
            return item.label
        }
        if kind == .boolean { return value != 0 ? "on" : "off" }
        return String(value)
    }
}
