import Foundation
@testable import Provenance
import Testing
import TestSupport

/// The pieces a manifest is made of, each against what its specification says.
@Suite struct ManifestPiecesTests {
    @Test("CBOR values come back from libcbor as they went in, integers in their shortest form")
    func cborRoundTrip() throws {
        let value = CBORValue.map([
            (key: .text("text"), value: .text("Zeit: 08:15 ✓ \u{0}end")), (key: .integer(-7), value: .bytes([0, 1, 0xFF])),
            (key: .text("nested"), value: .array([.integer(0), .integer(23), .integer(24), .integer(65_536), .integer(-1_000_000),
                                                  .bool(true), .null, .double(-33.865143)])),
            (key: .text("empty"), value: .map([])),
        ])
        let bytes = try value.encoded
        #expect(CBORValue(decoding: bytes) == value)
        #expect(try CBORValue.integer(23).encoded == [0x17])
        #expect(try CBORValue.integer(-7).encoded == [0x26])
        #expect(try CBORValue.integer(500).encoded == [0x19, 0x01, 0xF4])
        #expect(try CBORValue.text("a").encoded == [0x61, 0x61])
        // (Debian's libcbor 0.8 cannot load a tagged item back: tags are checked by their bytes.)
        #expect(try CBORValue.tagged(18, .array([])).encoded == [0xD2, 0x80])
    }

    @Test("bytes that are not exactly one CBOR item, or nest too deep, decode to nil")
    func cborRefusesMalformed() throws {
        let good = try CBORValue.array([.text("abc"), .integer(1)]).encoded
        #expect(CBORValue(decoding: []) == nil)
        #expect(CBORValue(decoding: Array(good.dropLast())) == nil)
        #expect(CBORValue(decoding: good + [0]) == nil)
        #expect(CBORValue(decoding: [0x62, 0xC3, 0x28]) == nil)  // text that is not UTF-8
        #expect(CBORValue(decoding: [UInt8](repeating: 0x81, count: 200) + [0]) == nil)
    }

    @Test("a JUMBF box's LBox counts itself, its type and its payload; a superbox starts with its description")
    func jumbfSizes() {
        let content = JUMBFBox(type: "cbor", payload: [1, 2, 3])
        #expect(content.bytes == [0, 0, 0, 11] + Array("cbor".utf8) + [1, 2, 3])
        let superbox = JUMBFBox.cbor(label: "c2pa.actions.v2", [1, 2, 3])
        let bytes = superbox.bytes
        #expect(bytes.count == 8 + (8 + 16 + 1 + 16) + 11)
        #expect(Array(bytes[0..<4]) == [0, 0, 0, UInt8(bytes.count)])
        #expect(Array(bytes[4..<8]) == Array("jumb".utf8))
        #expect(Array(bytes[8..<12]) == [0, 0, 0, 41])
        #expect(Array(bytes[12..<16]) == Array("jumd".utf8))
        #expect(Array(bytes[16..<32]) == Array("cbor".utf8) + [0x00, 0x11, 0x00, 0x10, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71])
        #expect(bytes[32] == 0x03)
        #expect(Array(bytes[33..<49]) == Array("c2pa.actions.v2".utf8) + [0])
        #expect(Array(bytes[49...]) == content.bytes)
    }

    @Test("a store over 64 KB is cut into APP11 segments that each repeat the superbox's LBox and TBox")
    func app11Splitting() {
        let store = JUMBFBox(type: "jumb", payload: (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).bytes
        let segments = JPEGManifestSegments.segments(store)
        var offset = 0, sequence: UInt32 = 1
        var payload: [UInt8] = []
        while offset < segments.count {
            #expect(Array(segments[offset..<offset + 2]) == [0xFF, 0xEB])
            let length = Int(segments[offset + 2]) << 8 | Int(segments[offset + 3])
            #expect(length <= 0xFFFF)
            let body = Array(segments[offset + 4..<offset + 2 + length])
            #expect(Array(body[0..<2]) == Array("JP".utf8))
            #expect(Array(body[2..<4]) == [0, 1])
            #expect(Array(body[4..<8]) == BigEndian.bytes(sequence))
            #expect(Array(body[8..<16]) == Array(store[0..<8]))
            payload += body[16...]
            offset += 2 + length
            sequence += 1
        }
        #expect(sequence - 1 == 3)
        #expect(payload == Array(store[8...]))
    }

    @Test("the store goes after SOI and the leading APP0-APP2 segments, before the tables")
    func insertionPoint() throws {
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x04, 1, 2], app1: [UInt8] = [0xFF, 0xE1, 0x00, 0x03, 9]
        let jpeg: [UInt8] = [0xFF, 0xD8] + app0 + app1 + [0xFF, 0xDB, 0x00, 0x02, 0xFF, 0xD9]
        #expect(try JPEGManifestSegments.insertionOffset(jpeg) == 2 + app0.count + app1.count)
        #expect(throws: ProvenanceError.self) { try JPEGManifestSegments.insertionOffset([0x89, 0x50, 0x4E, 0x47]) }
        #expect(throws: ProvenanceError.self) { try JPEGManifestSegments.insertionOffset([0xFF, 0xD8, 0xFF, 0xE1, 0x40, 0x00, 0]) }
    }

    @Test("COSE's Sig_structure for one signer is [\"Signature1\", protected, empty external data, payload]; the message is tagged, detached, with a 64-byte ES256 signature")
    func coseSigStructure() throws {
        let protected = try COSESign1.protectedHeader(chain: [[1, 2], [3]])
        #expect(CBORValue(decoding: protected) == .map([(key: .integer(1), value: .integer(-7)),
                                                        (key: .integer(33), value: .array([.bytes([1, 2]), .bytes([3])]))]))
        let structure = try COSESign1.toBeSigned(protected: protected, payload: [0xAA])
        #expect(Array(structure.prefix(12)) == [0x84, 0x6A] + Array("Signature1".utf8))
        #expect(CBORValue(decoding: structure) == .array([.text("Signature1"), .bytes(protected), .bytes([]), .bytes([0xAA])]))

        let identity = try KeysFixture.installation().identity
        let message = try COSESign1.sign([1, 2, 3], with: identity)
        #expect(message.first == 0xD2)  // tag 18, COSE_Sign1
        guard case .array(let parts)? = CBORValue(decoding: Array(message.dropFirst())), parts.count == 4,
              case .bytes(let header) = parts[0], case .bytes(let signature) = parts[3] else {
            Issue.record("not a tagged COSE_Sign1: \(message)")
            return
        }
        #expect(parts[2] == .null)
        #expect(signature.count == 64)
        #expect(header == (try COSESign1.protectedHeader(chain: identity.certificateChainDER)))
    }
}

extension ManifestPiecesTests {
    @Test("a photo's own manifest store is found before its picture data, wherever its APP11 segments are")
    func existingStore() {
        let store = JUMBFBox(type: "jumb", payload: [UInt8](repeating: 7, count: 70_000)).bytes
        let segments = JPEGManifestSegments.segments(store)
        let app1: [UInt8] = [0xFF, 0xE1, 0x00, 0x03, 9], tables: [UInt8] = [0xFF, 0xDB, 0x00, 0x02]
        let scan: [UInt8] = [0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xEB, 0x00, 0x04, 0x4A, 0x50, 0xFF, 0xD9]
        #expect(JPEGManifestSegments.existingStoreSize([0xFF, 0xD8] + app1 + segments + tables + scan) == segments.count)
        #expect(JPEGManifestSegments.existingStoreSize([0xFF, 0xD8] + app1 + tables + scan) == 0)
        // Another APP11 (not JPEG XT) is not a store; a cut-short file is read as far as it goes.
        #expect(JPEGManifestSegments.existingStoreSize([0xFF, 0xD8, 0xFF, 0xEB, 0x00, 0x04, 0x41, 0x42] + scan) == 0)
        #expect(JPEGManifestSegments.existingStoreSize(Array(([0xFF, 0xD8] + segments).prefix(70_000))) == 65_535 + 2)
        #expect(JPEGManifestSegments.existingStoreSize([0x89, 0x50]) == 0)
    }
}
