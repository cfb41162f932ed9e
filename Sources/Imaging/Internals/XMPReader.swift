/// Reads the properties of an XMP packet from untrusted XML: every rdf:Description under rdf:RDF,
/// properties as attributes or elements, arrays (rdf:Seq, rdf:Bag, rdf:Alt) and structures
/// (`rdf:parseType="Resource"` or a nested rdf:Description). What is not one of these is passed over.
enum XMPReader {
    /// At most this many properties, items per array and fields per structure are read.
    static let maximumCount = 4096

    static func parse(_ bytes: [UInt8]) throws(XMPError) -> XMPPacket {
        guard bytes.count <= XMPPacket.maximumParsedSize else { throw .tooLarge(bytes: bytes.count) }
        // An ASCII-compatible encoding (UTF-8, or one the XML declaration names), so the check for a
        // DTD below sees one wherever it is; UTF-16 and EBCDIC packets are not read.
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard body.drop(while: { [0x20, 0x09, 0x0A, 0x0D].contains($0) }).first == UInt8(ascii: "<"),
              !body.withUnsafeBufferPointer({ $0.contains(0) }) else { throw .notXML }
        if contains(body, "<!DOCTYPE") || contains(body, "<!ENTITY") { throw .declaresEntities }
        let document = try XMLDocument(parsing: bytes)
        guard let root = document.root, let rdf = findRDF(root) else { return XMPPacket() }
        var properties: [XMPPacket.Property] = []
        for description in XMLDocument.elements(rdf) where isRDF(description, "Description") {
            properties += self.properties(of: description, limit: maximumCount - properties.count)
            if properties.count >= maximumCount { break }
        }
        return XMPPacket(properties: properties)
    }

    /// Whether `text` occurs in `bytes` (a plain scan over the buffer: fast on a megabyte).
    private static func contains(_ bytes: ArraySlice<UInt8>, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { needle in
                guard hay.count >= needle.count else { return false }
                var index = 0
                while index <= hay.count - needle.count {
                    if hay[index] == needle[0] {
                        var matched = 1
                        while matched < needle.count && hay[index + matched] == needle[matched] { matched += 1 }
                        if matched == needle.count { return true }
                    }
                    index += 1
                }
                return false
            }
        }
    }

    private static func isRDF(_ node: XMLDocument.Node, _ name: String) -> Bool {
        XMLDocument.namespaceURI(node) == XMPNamespace.rdf.uri && XMLDocument.name(node) == name
    }

    /// rdf:RDF: the root, or a child of x:xmpmeta (x:xapmeta in old files).
    private static func findRDF(_ root: XMLDocument.Node) -> XMLDocument.Node? {
        if isRDF(root, "RDF") { return root }
        return XMLDocument.elements(root).first { isRDF($0, "RDF") }
    }

    private static func namespace(uri: String?, prefix: String?) -> XMPNamespace {
        XMPNamespace(uri: uri ?? "", prefix: prefix ?? "")
    }

    /// The properties of an rdf:Description or a structure: attributes, then child elements.
    private static func properties(of node: XMLDocument.Node, limit: Int) -> [XMPPacket.Property] {
        var result: [XMPPacket.Property] = []
        for attribute in XMLDocument.attributes(node) where attribute.uri != nil && attribute.uri != XMPNamespace.rdf.uri {
            guard result.count < limit else { return result }
            result.append(XMPPacket.Property(namespace(uri: attribute.uri, prefix: attribute.prefix), attribute.name, .text(attribute.value)))
        }
        for element in XMLDocument.elements(node) where XMLDocument.namespaceURI(element) != nil {
            guard result.count < limit else { return result }
            if let value = value(of: element) {
                result.append(XMPPacket.Property(namespace(uri: XMLDocument.namespaceURI(element), prefix: XMLDocument.prefix(element)),
                                                 XMLDocument.name(element), value))
            }
        }
        return result
    }

    /// A property element's value: an array, a structure, a resource or text.
    private static func value(of element: XMLDocument.Node) -> XMPPacket.Value? {
        let attributes = XMLDocument.attributes(element)
        if attributes.contains(where: { $0.uri == XMPNamespace.rdf.uri && $0.name == "parseType" && $0.value == "Resource" }) {
            return .structures([properties(of: element, limit: maximumCount)])
        }
        if let resource = attributes.first(where: { $0.uri == XMPNamespace.rdf.uri && $0.name == "resource" }) {
            return .text(resource.value)
        }
        let children = XMLDocument.elements(element)
        guard let container = children.first else { return .text(XMLDocument.ownText(element)) }
        if isRDF(container, "Description") {
            return .structures([properties(of: container, limit: maximumCount)])
        }
        let items = XMLDocument.elements(container).filter { isRDF($0, "li") }.prefix(maximumCount)
        if items.contains(where: { item in
            XMLDocument.attributes(item).contains { $0.uri == XMPNamespace.rdf.uri && $0.name == "parseType" }
                || XMLDocument.elements(item).contains { isRDF($0, "Description") }
        }) {
            return .structures(items.map { item in
                let nested = XMLDocument.elements(item).first { isRDF($0, "Description") }
                return properties(of: nested ?? item, limit: maximumCount)
            })
        }
        let texts = items.map { XMLDocument.ownText($0) }
        if isRDF(container, "Seq") { return .ordered(texts) }
        if isRDF(container, "Bag") { return .unordered(texts) }
        if isRDF(container, "Alt") {
            let preferred = items.first { item in
                XMLDocument.attributes(item).contains { $0.name == "lang" && $0.value == "x-default" }
            }
            return .languageAlternative(preferred.map { XMLDocument.ownText($0) } ?? texts.first ?? "")
        }
        return nil
    }
}
