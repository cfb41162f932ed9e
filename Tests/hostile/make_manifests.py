"""make_manifests.py DIR — JPEGs whose C2PA manifest stores (JUMBF boxes in APP11 segments) are
hostile, for `stampcam verify` in make test-hostile: cut short, lying box lengths, boxes nested
thousands deep, a store of 10 000 one-byte segments, segments out of sequence, CBOR that declares
billions of items, a claim that is not CBOR. None is signed, so none may verify as valid."""
import os
import struct
import sys

C2PA_UUID_TAIL = bytes.fromhex("00110010800000aa00389b71")


def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def superbox(kind, label, contents):
    jumd = box(b"jumd", kind + C2PA_UUID_TAIL + b"\x03" + label.encode() + b"\0")
    return box(b"jumb", jumd + b"".join(contents))


def app11(store, size=65000, instance=1, sequences=None):
    header, rest = store[:8], store[8:]
    chunks = [rest[i:i + size] for i in range(0, len(rest), size)] or [b""]
    out = b""
    for index, chunk in enumerate(chunks):
        z = sequences[index] if sequences else index + 1
        data = header + chunk
        out += b"\xff\xeb" + struct.pack(">H", 10 + len(data)) + b"JP" + struct.pack(">HI", instance, z) + data
    return out


def jpeg(segments):
    scan = b"\xff\xda\x00\x08\x01\x01\x00\x00\x3f\x00" + bytes(range(256)) * 4 + b"\xff\xd9"
    return b"\xff\xd8" + segments + scan


def manifest(claim=b"\xa1\x61a\x01", signature=b"\xd2\x84\x40\xa0\xf6\x40"):
    return superbox(b"c2pa", "c2pa", [superbox(b"c2ma", "urn:uuid:hostile", [
        superbox(b"c2as", "c2pa.assertions", []),
        superbox(b"c2cl", "c2pa.claim", [box(b"cbor", claim)]),
        superbox(b"c2cs", "c2pa.signature", [box(b"cbor", signature)]),
    ])])


def main(folder):
    os.makedirs(folder, exist_ok=True)
    store = manifest()
    nested = box(b"cbor", b"\x00")
    for _ in range(3000):
        nested = superbox(b"c2pa", "c2pa", [nested])
    huge = bytearray(store)
    huge[0:4] = struct.pack(">I", 0xFFFFFFF0)
    xl = bytearray(store[:8]) + struct.pack(">Q", 1 << 62) + store[8:]
    xl[0:4] = struct.pack(">I", 1)
    cases = {
        "truncated-store": jpeg(app11(store))[: 2 + 4 + 40],
        "store-claims-4gb": jpeg(app11(bytes(huge))),
        "xlbox-claims-4eb": jpeg(app11(bytes(xl))),
        "boxes-nested-3000-deep": jpeg(app11(nested)),
        "ten-thousand-tiny-segments": jpeg(app11(manifest(signature=b"\x40" + bytes(10000)), size=1)),
        "segments-out-of-sequence": jpeg(app11(store, size=16, sequences=[1, 3, 2] + list(range(4, 1000)))),
        "claim-declares-2e32-items": jpeg(app11(manifest(claim=b"\x9b" + b"\xff" * 8))),
        "claim-nested-100000-deep": jpeg(app11(manifest(claim=b"\x81" * 100000 + b"\x00"))),
        "signature-not-cose": jpeg(app11(manifest(signature=b"\x63abc"))),
        "no-manifest": jpeg(b""),
    }
    for name, data in cases.items():
        with open(os.path.join(folder, name + ".jpg"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
