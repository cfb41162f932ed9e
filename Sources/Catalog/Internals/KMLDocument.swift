import CXML2
import Platform
import Values

/// Owns one libxml2 document being built as KML 2.2 (`kml` > `Document` > `Placemark`s); libxml2
/// escapes every text when it writes the document out.
final class KMLDocument {
    typealias Node = UnsafeMutablePointer<xmlNode>

    private let document: xmlDocPtr
    private let folder: Node

    static let namespace = "http://www.opengis.net/kml/2.2"

    init?(name: String) {
        xmlInitParser()
        guard let document = xmlNewDoc(Self.text("1.0")) else { return nil }
        self.document = document
        guard let root = xmlNewDocNode(document, nil, Self.text("kml"), nil) else { return nil }
        xmlDocSetRootElement(document, root)
        guard let namespace = xmlNewNs(root, Self.text(Self.namespace), nil) else { return nil }
        xmlSetNs(root, namespace)
        guard let folder = xmlNewChild(root, namespace, Self.text("Document"), nil) else { return nil }
        self.folder = folder
        guard xmlNewTextChild(folder, namespace, Self.text("name"), Self.text(XMLCharacters.clean(name))) != nil else { return nil }
    }

    deinit { xmlFreeDoc(document) }

    /// Where a photo was taken from and which way the camera faced, as numbers in KML's text form.
    struct View {
        var longitude: String, latitude: String, heading: String
    }

    /// Adds a Placemark, its children in the order the KML schema wants them. `description` is
    /// plain text: Google Earth reads a description as HTML, so it is escaped for HTML here (and
    /// for XML when written), and a value like `<script>` shows as typed. `picture` is the name of
    /// an image in the same KMZ, shown above the text.
    func addPlacemark(name: String, description: String, picture: String? = nil, view: View? = nil, when: String?,
                      data: [(name: String, value: String)], coordinates: String) -> Bool {
        guard let placemark = element(folder, "Placemark"), element(placemark, "name", XMLCharacters.clean(name)) != nil else { return false }
        // The same five entities HTML and Pango markup use.
        var html = Markup.escape(XMLCharacters.clean(description))
        if let picture { html = "<img src=\"\(Markup.escape(picture))\" width=\"400\"><br>" + html }
        guard element(placemark, "description", html) != nil else { return false }
        // Standing where the photo was taken, eye high, looking level the way the camera faced.
        if let view {
            guard let camera = element(placemark, "Camera") else { return false }
            let values = [("longitude", view.longitude), ("latitude", view.latitude), ("altitude", "2"), ("heading", view.heading),
                          ("tilt", "90"), ("altitudeMode", "relativeToGround")]
            for (name, value) in values { guard element(camera, name, value) != nil else { return false } }
        }
        if let when {
            guard let stamp = element(placemark, "TimeStamp"), element(stamp, "when", when) != nil else { return false }
        }
        guard let extended = element(placemark, "ExtendedData") else { return false }
        for item in data {
            guard let entry = element(extended, "Data"), element(entry, "value", XMLCharacters.clean(item.value)) != nil else { return false }
            xmlNewProp(entry, Self.text("name"), Self.text(XMLCharacters.clean(item.name)))
        }
        guard let point = element(placemark, "Point"), element(point, "coordinates", coordinates) != nil else { return false }
        return true
    }

    private func element(_ parent: Node, _ name: String, _ content: String? = nil) -> Node? {
        let namespace = parent.pointee.ns
        if let content { return xmlNewTextChild(parent, namespace, Self.text(name), Self.text(content)) }
        return xmlNewChild(parent, namespace, Self.text(name), nil)
    }

    /// The document as UTF-8 with its XML declaration, indented.
    func serialized() -> [UInt8]? {
        guard let buffer = xmlBufferCreate() else { return nil }
        defer { xmlBufferFree(buffer) }
        guard let context = xmlSaveToBuffer(buffer, "UTF-8", Int32(XML_SAVE_FORMAT.rawValue)) else { return nil }
        let saved = xmlSaveDoc(context, document)
        guard xmlSaveClose(context) >= 0, saved >= 0, let content = xmlBufferContent(buffer) else { return nil }
        return Array(UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(buffer))))
    }

    /// A NUL-terminated copy for libxml2's `const xmlChar *`.
    private static func text(_ string: String) -> [xmlChar] { Array(string.utf8) + [0] }
}
