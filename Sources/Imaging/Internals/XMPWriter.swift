import Platform

/// Writes an `XMPPacket` as RDF/XML through libxml2, which does the escaping: one rdf:Description
/// holding every property as an element, arrays as rdf:Seq/Bag/Alt, structures as
/// `rdf:parseType="Resource"` items.
enum XMPWriter {
    /// The packet wrapper's id, fixed by the XMP specification.
    static let packetID = "W5M0MpCehiHzreSzNTczkc9d"

    static func serialize(_ packet: XMPPacket) throws(XMPError) -> [UInt8] {
        guard let document = XMLDocument(), let meta = document.setRoot("xmpmeta"),
              let metaNamespace = XMLDocument.declare(.meta, on: meta) else { throw .cannotWrite }
        XMLDocument.setNamespace(metaNamespace, of: meta)
        guard let rdf = XMLDocument.addChild(meta, nil, "RDF"), let rdfNamespace = XMLDocument.declare(.rdf, on: rdf) else {
            throw .cannotWrite
        }
        XMLDocument.setNamespace(rdfNamespace, of: rdf)
        guard let description = XMLDocument.addChild(rdf, rdfNamespace, "Description") else { throw .cannotWrite }
        XMLDocument.setAttribute(description, rdfNamespace, "about", "")
        var declared: [String: XMLDocument.Namespace] = [:]
        func namespace(_ namespace: XMPNamespace) throws(XMPError) -> XMLDocument.Namespace {
            if let known = declared[namespace.uri] { return known }
            guard let made = XMLDocument.declare(namespace, on: description) else { throw .cannotWrite }
            declared[namespace.uri] = made
            return made
        }
        func add(_ property: XMPPacket.Property, to parent: XMLDocument.Node) throws(XMPError) {
            let ns = try namespace(property.namespace)
            switch property.value {
            case .text(let text):
                guard XMLDocument.addChild(parent, ns, property.name, content: XMLCharacters.clean(text)) != nil else { throw .cannotWrite }
            case .ordered(let items), .unordered(let items):
                let kind = if case .ordered = property.value { "Seq" } else { "Bag" }
                guard let element = XMLDocument.addChild(parent, ns, property.name),
                      let array = XMLDocument.addChild(element, rdfNamespace, kind) else { throw .cannotWrite }
                for item in items {
                    guard XMLDocument.addChild(array, rdfNamespace, "li", content: XMLCharacters.clean(item)) != nil else { throw .cannotWrite }
                }
            case .languageAlternative(let text):
                guard let element = XMLDocument.addChild(parent, ns, property.name),
                      let array = XMLDocument.addChild(element, rdfNamespace, "Alt"),
                      let item = XMLDocument.addChild(array, rdfNamespace, "li", content: XMLCharacters.clean(text)) else { throw .cannotWrite }
                XMLDocument.setLanguage(item, "x-default")
            case .structures(let structures):
                guard let element = XMLDocument.addChild(parent, ns, property.name),
                      let array = XMLDocument.addChild(element, rdfNamespace, "Bag") else { throw .cannotWrite }
                for fields in structures {
                    guard let item = XMLDocument.addChild(array, rdfNamespace, "li") else { throw .cannotWrite }
                    XMLDocument.setAttribute(item, rdfNamespace, "parseType", "Resource")
                    for field in fields { try add(field, to: item) }
                }
            }
        }
        // Every namespace is declared on the description, before the properties that use it.
        for property in packet.properties {
            _ = try namespace(property.namespace)
            if case .structures(let structures) = property.value {
                for field in structures.joined() { _ = try namespace(field.namespace) }
            }
        }
        for property in packet.properties { try add(property, to: description) }
        guard document.addProcessingInstruction("xpacket", "begin=\"\u{FEFF}\" id=\"\(packetID)\"", before: true),
              document.addProcessingInstruction("xpacket", "end=\"w\"", before: false),
              let bytes = document.serialized() else { throw .cannotWrite }
        return bytes
    }
}
