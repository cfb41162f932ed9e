/// An XMP namespace: its URI (what identifies it) and the prefix written for it.
public struct XMPNamespace: Sendable, Hashable {
    public let uri: String
    public let prefix: String

    public init(uri: String, prefix: String) {
        self.uri = uri
        self.prefix = prefix
    }

    public static let dc = XMPNamespace(uri: "http://purl.org/dc/elements/1.1/", prefix: "dc")
    public static let xmp = XMPNamespace(uri: "http://ns.adobe.com/xap/1.0/", prefix: "xmp")
    public static let photoshop = XMPNamespace(uri: "http://ns.adobe.com/photoshop/1.0/", prefix: "photoshop")
    public static let exif = XMPNamespace(uri: "http://ns.adobe.com/exif/1.0/", prefix: "exif")
    public static let iptcCore = XMPNamespace(uri: "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/", prefix: "Iptc4xmpCore")
    public static let iptcExtension = XMPNamespace(uri: "http://iptc.org/std/Iptc4xmpExt/2008-02-29/", prefix: "Iptc4xmpExt")
    static let rdf = XMPNamespace(uri: "http://www.w3.org/1999/02/22-rdf-syntax-ns#", prefix: "rdf")
    static let meta = XMPNamespace(uri: "adobe:ns:meta/", prefix: "x")
}

/// An XMP packet as properties of one resource (the photo), the way the XMP specification (ISO
/// 16684-1) models it: simple values, arrays and arrays of structures. A value: written to XML with
/// `serialized()`, read from a photo's XML with `init(parsing:)`.
public struct XMPPacket: Sendable, Equatable {
    public struct Property: Sendable, Equatable {
        public var namespace: XMPNamespace
        public var name: String
        public var value: Value

        public init(_ namespace: XMPNamespace, _ name: String, _ value: Value) {
            self.namespace = namespace
            self.name = name
            self.value = value
        }

        public static func == (a: Property, b: Property) -> Bool {
            a.namespace.uri == b.namespace.uri && a.name == b.name && a.value == b.value
        }
    }

    public indirect enum Value: Sendable, Equatable {
        case text(String)
        /// rdf:Seq: an ordered array (dc:creator).
        case ordered([String])
        /// rdf:Bag: an unordered array.
        case unordered([String])
        /// rdf:Alt with one x-default item: a language alternative (dc:title, dc:description).
        case languageAlternative(String)
        /// An array of structures (Iptc4xmpExt:LocationShown); a single structure reads as one item.
        case structures([[Property]])

        /// The value as one text: the text, the first item of an array, the default language.
        public var text: String? {
            switch self {
            case .text(let text), .languageAlternative(let text): return text
            case .ordered(let items), .unordered(let items): return items.first
            case .structures: return nil
            }
        }
    }

    public var properties: [Property]

    public init(properties: [Property] = []) {
        self.properties = properties
    }

    /// The first property `name` of the namespace with `uri`.
    public func value(_ namespace: XMPNamespace, _ name: String) -> Value? {
        properties.first { $0.namespace.uri == namespace.uri && $0.name == name }?.value
    }

    public func text(_ namespace: XMPNamespace, _ name: String) -> String? {
        value(namespace, name)?.text
    }

    /// What starts an XMP APP1 segment: the namespace and a NUL.
    public static let app1Header = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// The most a packet read from a photo may be: one APP1 segment holds less.
    public static let maximumParsedSize = 1 << 20

    /// The packet as XML (UTF-8, inside `<?xpacket?>`), every value escaped; characters XML cannot
    /// hold (control characters other than tab and line breaks, U+FFFE, U+FFFF) become U+FFFD.
    public func serialized() throws(XMPError) -> [UInt8] {
        try XMPWriter.serialize(self)
    }

    /// Reads a packet from a photo. The XML is taken as hostile: no DTD (so no entities), no
    /// network, libxml2's depth limit, at most `maximumParsedSize` bytes, only ASCII-compatible
    /// encodings; what is not XMP in it is passed over.
    public init(parsing bytes: [UInt8]) throws(XMPError) {
        self = try XMPReader.parse(bytes)
    }
}

/// Why an XMP packet could not be read or written.
public enum XMPError: Error, Equatable, CustomStringConvertible {
    case tooLarge(bytes: Int)
    case notXML
    /// A document type declaration: entities are refused outright.
    case declaresEntities
    case malformed(String)
    case cannotWrite

    public var description: String {
        switch self {
        case .tooLarge(let bytes): return "the XMP packet is \(bytes) bytes, more than \(XMPPacket.maximumParsedSize)"
        case .notXML: return "the XMP packet is not XML in an ASCII-compatible encoding"
        case .declaresEntities: return "the XMP packet has a document type declaration (entities are not read)"
        case .malformed(let detail): return "the XMP packet is not well-formed XML: \(detail)"
        case .cannotWrite: return "libxml2 could not write the XMP packet"
        }
    }
}
