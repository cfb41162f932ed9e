import Foundation
import Testing
import TestSupport
@testable import Imaging

/// XMP written through libxml2 and read back from hostile XML.
@Suite struct XMPTests {
    static let stampcam = XMPNamespace(uri: "http://stampcam.invalid/xmp/1.0/", prefix: "stampcam")
    /// Text that breaks naive XML writers: markup, entities, quotes, CDATA and packet ends, non-BMP characters.
    static let nasty = #"<b>&amp; "q" 'a' ]]> <?xpacket end="w"?> </x:xmpmeta> 李伟 🏗️ tab"# + "\tline\nend"

    static var packet: XMPPacket {
        XMPPacket(properties: [
            .init(.xmp, "CreatorTool", .text("stampcam 0.2.0")),
            .init(.dc, "creator", .ordered([nasty])),
            .init(.dc, "subject", .unordered(["a", "b & c"])),
            .init(.dc, "title", .languageAlternative("Bridge 7 <north>")),
            .init(.iptcExtension, "LocationShown", .structures([[
                .init(.iptcExtension, "City", .text("Paris")),
                .init(.iptcExtension, "LocationName", .languageAlternative("Pier 4")),
            ]])),
            .init(stampcam, "Note", .text(nasty)),
            .init(stampcam, "Extra", .structures([[.init(stampcam, "Key", .text("k&y")), .init(stampcam, "Value", .text("v<l"))]])),
        ])
    }

    @Test("every kind of value round-trips through our writer and reader, escaped")
    func roundTrip() throws {
        let bytes = try Self.packet.serialized()
        let read = try XMPPacket(parsing: bytes)
        #expect(read == Self.packet)
        #expect(read.text(Self.stampcam, "Note") == Self.nasty)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"))
        #expect(text.hasSuffix("<?xpacket end=\"w\"?>\n"))
        #expect(!text.contains("<b>"))
    }

    @Test("a strict XML parser (xmllint) accepts what we write, control characters included")
    func strictParser() throws {
        var packet = Self.packet
        packet.properties.append(.init(Self.stampcam, "Control", .text("bell\u{7} nul\u{0} esc\u{1B} ffff\u{FFFF}")))
        let bytes = try packet.serialized()
        #expect(try XMLLint.check(bytes) == nil)
        #expect(try XMPPacket(parsing: bytes).text(Self.stampcam, "Control") == "bell\u{FFFD} nul\u{FFFD} esc\u{FFFD} ffff\u{FFFD}")
    }

    @Test("attribute shorthand, nested descriptions and rdf:resource are read too (what other tools write)")
    func otherForms() throws {
        let xml = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="5"/>
        <rdf:Description rdf:about="" xmlns:s="http://stampcam.invalid/xmp/1.0/">
          <s:Style>banner</s:Style><s:Link rdf:resource="http://example.invalid/x"/>
          <s:Extra><rdf:Bag><rdf:li><rdf:Description s:Key="k" s:Value="v"/></rdf:li></rdf:Bag></s:Extra>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """
        let read = try XMPPacket(parsing: Array(xml.utf8))
        #expect(read.text(.xmp, "Rating") == "5")
        #expect(read.text(Self.stampcam, "Style") == "banner")
        #expect(read.text(Self.stampcam, "Link") == "http://example.invalid/x")
        guard case .structures(let items)? = read.value(Self.stampcam, "Extra") else { Issue.record("no Extra"); return }
        #expect(items.first?.first { $0.name == "Key" }?.value == .text("k"))
    }

    @Test("hostile XML is refused: entities, external DTDs, huge, deep, UTF-16, invalid UTF-8, junk",
          arguments: HostileXMP.allCases)
    func hostile(_ input: HostileXMP) throws {
        #expect(throws: XMPError.self) { try XMPPacket(parsing: input.bytes) }
    }

    @Test("a packet of many properties is read up to the cap, without error")
    func manyProperties() throws {
        let body = (0..<10_000).map { "<s:P\($0)>v</s:P\($0)>" }.joined()
        let xml = #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:s="urn:s:">"#
            + body + "</rdf:Description></rdf:RDF>"
        #expect(try XMPPacket(parsing: Array(xml.utf8)).properties.count == 4096)
    }

    @Test("a photo's XMP goes into its own APP1 segment and is read back from the file")
    func inPhoto() throws {
        let photo = try Photo(jpeg: try Fixtures.site.jpeg(), options: LoadOptions(maxSize: 64))
        let encoded = try photo.encoded(record: OutputMetadata(xmp: Self.packet))
        #expect(encoded.warnings.isEmpty)
        let segment = try #require(JPEGSegments.segments(encoded.bytes).first { $0.marker == 0xE1 && $0.body.starts(with: XMPPacket.app1Header) })
        #expect(try XMLLint.check(Array(segment.body.dropFirst(XMPPacket.app1Header.count))) == nil)
        let reread = try Photo(jpeg: encoded.bytes, options: LoadOptions(maxSize: 64))
        let xmp = try #require(reread.metadata.xmp)
        #expect(try XMPPacket(parsing: xmp) == Self.packet)
        #expect(reread.metadata.exif != nil)
    }

    @Test("a packet too large for one APP1 segment is left out with a warning; the photo is written")
    func tooLarge() throws {
        let photo = try Photo(jpeg: try Fixtures.site.jpeg(), options: LoadOptions(maxSize: 64))
        let huge = XMPPacket(properties: [.init(Self.stampcam, "Note", .text(String(repeating: "x", count: 70_000)))])
        let encoded = try photo.encoded(record: OutputMetadata(xmp: huge))
        #expect(encoded.warnings.contains { $0.hasPrefix("XMP not written") })
        #expect(try Photo(jpeg: encoded.bytes, options: LoadOptions(maxSize: 64)).metadata.xmp == nil)
    }
}

/// XML built to hurt a parser.
enum HostileXMP: String, CaseIterable, CustomStringConvertible {
    case billionLaughs, externalEntity, externalDTD, huge, deep, utf16, invalidUTF8, junk, unclosed, ebcdic

    var description: String { rawValue }

    var bytes: [UInt8] {
        switch self {
        case .billionLaughs:
            var entities = #"<!ENTITY a0 "lol">"#
            for level in 1...9 { entities += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">" }
            return Array(("<?xml version=\"1.0\"?><!DOCTYPE x [" + entities + "]><x:xmpmeta xmlns:x=\"adobe:ns:meta/\">&a9;</x:xmpmeta>").utf8)
        case .externalEntity:
            return Array(#"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>"#.utf8)
        case .externalDTD:
            return Array(#"<!DOCTYPE x SYSTEM "http://example.invalid/x.dtd"><x/>"#.utf8)
        case .huge:
            return Array("<x>".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 2 << 20) + Array("</x>".utf8)
        case .deep:
            return Array((String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)).utf8)
        case .utf16:
            return [0xFF, 0xFE] + Array("<x/>".utf8).flatMap { [$0, 0] }
        case .invalidUTF8:
            return Array(#"<?xml version="1.0" encoding="UTF-8"?><x>caf"#.utf8) + [0xE9, 0xFF] + Array("</x>".utf8)
        case .junk:
            return [UInt8](repeating: 0x9F, count: 300)
        case .unclosed:
            return Array(#"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description>"#.utf8)
        case .ebcdic:
            return [0x4C, 0x6F, 0xA7, 0x94, 0x93, 0x40]
        }
    }
}
