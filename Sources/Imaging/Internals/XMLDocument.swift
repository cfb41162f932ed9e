import CXML2
import Values

/// Owns one libxml2 document: one parsed from untrusted bytes, or one being built for writing.
/// Nodes handed out are only valid while the document lives.
final class XMLDocument {
    typealias Node = UnsafeMutablePointer<xmlNode>
    typealias Namespace = UnsafeMutablePointer<xmlNs>

    let document: xmlDocPtr

    /// libxml2's global set-up, done once before any thread parses (it is not safe to race). It
    /// opens libxml2 (and the ICU it needs), which is not loaded at start.
    static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    /// A new, empty document.
    init?() {
        _ = Self.initialised
        guard let document = xmlNewDoc(Self.text("1.0")) else { return nil }
        self.document = document
    }

    /// Parses `bytes` without a network, without loading or substituting entities, within
    /// libxml2's default depth and size limits (no XML_PARSE_HUGE), without printing errors.
    init(parsing bytes: [UInt8]) throws(XMPError) {
        _ = Self.initialised
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                            | XML_PARSE_NOCDATA.rawValue)
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                xmlReadMemory(chars.baseAddress, Int32(chars.count), nil, nil, options)
            }
        }
        guard let parsed else {
            let message = xmlGetLastError().flatMap { $0.pointee.message }.map { String(cString: $0) } ?? "unreadable"
            throw .malformed(message.trimmingWhitespace)
        }
        document = parsed
        guard document.pointee.intSubset == nil, document.pointee.extSubset == nil else { throw .declaresEntities }
    }

    deinit { xmlFreeDoc(document) }

    var root: Node? { xmlDocGetRootElement(document) }

    /// A NUL-terminated copy of `string` for libxml2's `const xmlChar *`.
    static func text(_ string: String) -> [xmlChar] {
        Array(string.utf8) + [0]
    }

    // MARK: reading

    static func name(_ node: Node) -> String {
        node.pointee.name.map { String(cString: $0) } ?? ""
    }

    static func namespaceURI(_ node: Node) -> String? {
        node.pointee.ns?.pointee.href.map { String(cString: $0) }
    }

    static func prefix(_ node: Node) -> String? {
        node.pointee.ns?.pointee.prefix.map { String(cString: $0) }
    }

    static func isElement(_ node: Node) -> Bool { node.pointee.type == XML_ELEMENT_NODE }

    /// The element children of `node`.
    static func elements(_ node: Node) -> [Node] {
        var result: [Node] = []
        var child = node.pointee.children
        while let current = child {
            if isElement(current) { result.append(current) }
            child = current.pointee.next
        }
        return result
    }

    /// The text directly inside `node`. Entity references are not followed (there are none: a
    /// document with a DTD is refused), so no text can grow beyond the bytes read.
    static func ownText(_ node: Node) -> String {
        var bytes: [UInt8] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
               let content = current.pointee.content {
                var pointer = content
                while pointer.pointee != 0 {
                    bytes.append(pointer.pointee)
                    pointer += 1
                }
            }
            child = current.pointee.next
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The attributes of `node`: namespace URI (nil when none), local name, value.
    static func attributes(_ node: Node) -> [(uri: String?, prefix: String?, name: String, value: String)] {
        var result: [(uri: String?, prefix: String?, name: String, value: String)] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            let name = current.pointee.name.map { String(cString: $0) } ?? ""
            let uri = current.pointee.ns?.pointee.href.map { String(cString: $0) }
            let prefix = current.pointee.ns?.pointee.prefix.map { String(cString: $0) }
            var value = ""
            var child = current.pointee.children
            while let text = child {
                if let content = text.pointee.content { value += String(cString: content) }
                child = text.pointee.next
            }
            result.append((uri, prefix, name, value))
            attribute = current.pointee.next
        }
        return result
    }

    // MARK: building

    func setRoot(_ name: String) -> Node? {
        guard let node = xmlNewDocNode(document, nil, Self.text(name), nil) else { return nil }
        xmlDocSetRootElement(document, node)
        return node
    }

    /// Declares `namespace` on `node`.
    static func declare(_ namespace: XMPNamespace, on node: Node) -> Namespace? {
        xmlNewNs(node, text(namespace.uri), text(namespace.prefix))
    }

    static func setNamespace(_ namespace: Namespace, of node: Node) {
        xmlSetNs(node, namespace)
    }

    /// A child element holding `content` as text (libxml2 escapes it when saving).
    @discardableResult
    static func addChild(_ parent: Node, _ namespace: Namespace?, _ name: String, content: String? = nil) -> Node? {
        if let content {
            return xmlNewTextChild(parent, namespace, text(name), text(content))
        }
        return xmlNewChild(parent, namespace, text(name), nil)
    }

    static func setAttribute(_ node: Node, _ namespace: Namespace?, _ name: String, _ value: String) {
        xmlNewNsProp(node, namespace, text(name), text(value))
    }

    /// `xml:lang` (the XML namespace needs no declaration).
    static func setLanguage(_ node: Node, _ language: String) {
        xmlNodeSetLang(node, text(language))
    }

    /// A processing instruction before (or after) the root element.
    func addProcessingInstruction(_ target: String, _ content: String, before: Bool) -> Bool {
        guard let root, let instruction = xmlNewDocPI(document, Self.text(target), Self.text(content)) else { return false }
        return (before ? xmlAddPrevSibling(root, instruction) : xmlAddNextSibling(root, instruction)) != nil
    }

    /// The document as UTF-8, indented, without an XML declaration.
    func serialized() -> [UInt8]? {
        guard let buffer = xmlBufferCreate() else { return nil }
        defer { xmlBufferFree(buffer) }
        guard let context = xmlSaveToBuffer(buffer, "UTF-8", Int32(XML_SAVE_NO_DECL.rawValue | XML_SAVE_FORMAT.rawValue)) else {
            return nil
        }
        let saved = xmlSaveDoc(context, document)
        guard xmlSaveClose(context) >= 0, saved >= 0, let content = xmlBufferContent(buffer) else { return nil }
        return Array(UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(buffer))))
    }
}
