/// One language's compiled message catalogue (a `.mo` file, as msgfmt writes it), read once into an
/// immutable table: each text (with its context and plural, as gettext keys them) and its
/// translations, and the language's plural rule. A value any thread may read.
public struct MessageCatalogue: Sendable {
    /// The catalogue's language, from its header (`Language: pt_BR`).
    public let language: String
    /// The translations by key: `text`, or `context\u{4}text`; a plural's forms in order.
    private let entries: [String: [String]]
    private let plural: PluralRule

    /// Why a file is not a catalogue this reader can use.
    public struct Malformed: Error, Equatable, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { "not a gettext catalogue (.mo): \(reason)" }
    }

    /// The largest catalogue read: far more than every text of stampcam in any language.
    public static let maxSize = 16 << 20

    /// Reads `bytes` as a `.mo` file (either byte order).
    public init(mo bytes: [UInt8]) throws(Malformed) {
        guard bytes.count >= 28, bytes.count <= Self.maxSize else { throw Malformed(reason: "\(bytes.count) bytes") }
        let reader: MOReader
        switch Array(bytes[0..<4]) {
        case [0xde, 0x12, 0x04, 0x95]: reader = MOReader(bytes: bytes, bigEndian: false)
        case [0x95, 0x04, 0x12, 0xde]: reader = MOReader(bytes: bytes, bigEndian: true)
        default: throw Malformed(reason: "no magic number")
        }
        guard try reader.word(4) >> 16 == 0 else { throw Malformed(reason: "an unknown major revision") }
        let count = try reader.word(8), originals = try reader.word(12), translations = try reader.word(16)
        guard count <= bytes.count / 8 else { throw Malformed(reason: "\(count) texts in \(bytes.count) bytes") }
        var entries: [String: [String]] = [:]
        entries.reserveCapacity(count)
        var header = ""
        for index in 0..<count {
            let key = try reader.string(table: originals, index: index)
            let forms = try reader.string(table: translations, index: index).split(separator: "\0", omittingEmptySubsequences: false)
            // A plural's key is "singular\0plural": gettext looks it up by the singular.
            let id = String(key.prefix { $0 != "\0" })
            if id.isEmpty { header = forms.first.map(String.init) ?? "" }
            entries[id] = forms.map(String.init)
        }
        self.entries = entries
        func field(_ name: String) -> String? {
            header.split(separator: "\n").first { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)).trimmingCharacters }
        }
        language = field("Language") ?? ""
        plural = field("Plural-Forms").flatMap { forms in
            forms.split(separator: ";").first { $0.trimmingCharacters.hasPrefix("plural=") }
                .flatMap { try? PluralRule(String($0.trimmingCharacters.dropFirst("plural=".count))) }
        } ?? .germanic
    }

    /// The translation of `text` (in `context`), or nil when the catalogue has none.
    public func text(_ text: String, context: String? = nil) -> String? {
        let key = context.map { $0 + "\u{4}" + text } ?? text
        guard let translated = entries[key]?.first, !translated.isEmpty else { return nil }
        return translated
    }

    /// The form of a plural for `count` (`singular` is its key), or nil when the catalogue has none.
    public func text(_ singular: String, count: Int) -> String? {
        guard let forms = entries[singular], !forms.isEmpty else { return nil }
        let form = forms[min(max(0, plural.form(for: count)), forms.count - 1)]
        return form.isEmpty ? nil : form
    }
}

/// Reads the words and strings of a `.mo` file, every offset checked.
private struct MOReader {
    let bytes: [UInt8]
    let bigEndian: Bool

    func word(_ offset: Int) throws(MessageCatalogue.Malformed) -> Int {
        guard offset >= 0, offset <= bytes.count - 4 else { throw .init(reason: "an offset past the end") }
        let b = bytes[offset..<offset + 4].map(UInt32.init)
        let value = bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
        return Int(value)
    }

    /// The `index`th string of the table at `table`: its length and offset, then its bytes.
    func string(table: Int, index: Int) throws(MessageCatalogue.Malformed) -> String {
        let entry = table + 8 * index
        let length = try word(entry), offset = try word(entry + 4)
        guard offset <= bytes.count, length < bytes.count - offset else { throw .init(reason: "a text past the end") }
        return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
    }
}

extension StringProtocol {
    fileprivate var trimmingCharacters: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
