"""verify_strict.py STAMPCAM — `make test-c2pa`: `stampcam verify` is as strict as the reference
reader (c2pa-python) where it used to say valid and the reference did not:

- signer certificates outside C2PA's profile (no digitalSignature, anyExtendedKeyUsage, serverAuth
  alone, no extended key usage, a CA flag, a sub-CA signing), beside one inside it (emailProtection),
  documentSigning and C2PA's claim-signing OID alone (which this reference refuses), and a chain
  through an intermediate to the root given;
- a kept parent manifest altered after the photo was stamped again;
- boxes and headers: a zero-length box, a claim box of another type than its label says, the
  certificate chain outside the protected header (re-signed, so only that differs), a file cut
  inside its manifest store;
- `verify --code`: the logged file replaced by another signed photo, a malformed code.

stampcam signs the photos (`apply --signing-key/--signing-cert`: the reference Builder refuses to
sign with a certificate outside the profile); for each, stampcam's outcome and exit code must be
the ones the reference reader's codes imply. Prints `c2pa-strict: N passed, M failed`."""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import fixtures

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from stamptest import isolated_env  # noqa: E402

STAMPCAM = os.path.realpath(sys.argv[1])
EXIT = {"valid": 0, "untrusted": 10, "expired": 11, "noCredentials": 12, "changed": 13, "invalid": 14}
passed = failed = 0


def check(what, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok   - {what}")
    else:
        failed += 1
        print(f"FAIL - {what}" + (f": {detail}" if detail else ""))


def run(*args):
    return subprocess.run([STAMPCAM, *args], capture_output=True, text=True, env=ENV)


def verify(photo, *args):
    result = run("verify", "--json", photo, *args)
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    return result.returncode, (lines[0] if lines else {}), result.stderr


def agree(what, photo, trust, expect=None):
    """stampcam and the reference reader give `photo` the same outcome (`expect`, when given, is
    what the case is about: the reference must say it too, so the case tests what it claims)."""
    codes = fixtures.reference_codes(photo, trust=trust)
    reference = fixtures.reference_outcome(codes)
    if expect:
        check(f"{what}: the reference says {expect}", reference == expect, sorted(codes))
    code, line, err = verify(photo, "--trust", trust)
    check(f"{what}: stampcam agrees ({reference})", line.get("outcome") == reference,
          f"stampcam: {line.get('outcome')} ({line.get('problem')}); reference: {sorted(codes)}")
    check(f"{what}: exit {EXIT.get(reference)}", code == EXIT.get(reference), f"exit {code}: {err.strip()}")
    return line


def make_cert(name, extensions, issuer, ca=False):
    """A P-256 key and certificate `name` with `extensions`, issued by `issuer` (cert, key)."""
    key, csr, cert, ext = (os.path.join(WORK, f"{name}.{n}") for n in ("key", "csr", "pem", "ext"))
    with open(ext, "w") as f:
        f.write(extensions)
    fixtures.run("openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key)
    fixtures.run("openssl", "req", "-new", "-key", key, "-out", csr, "-subj", f"/O=Acme Site Services/CN={name}")
    fixtures.run("openssl", "x509", "-req", "-in", csr, "-CA", issuer[0], "-CAkey", issuer[1], "-CAcreateserial",
                 "-out", cert, "-sha256", "-extfile", ext, "-days", "365")
    return cert, key


def chain_file(name, *certs):
    path = os.path.join(WORK, name + ".chain.pem")
    with open(path, "w") as out:
        for cert in certs:
            with open(cert) as f:
                out.write(f.read())
    return path


def stamp(name, chain, key, source=None):
    """`source` (the plain JPEG) stamped and signed with `key` and `chain` into out/NAME.jpg."""
    folder = os.path.join(WORK, "out-" + name)
    target = os.path.join(WORK, name + ".jpg")
    shutil.copy(source or PLAIN, target)
    result = run("apply", target, "-o", folder, "--signing-key", key, "--signing-cert", chain, "--user", "Li Wei")
    check(f"{name}: apply signs with it", result.returncode == 0, result.stderr)
    return os.path.join(folder, name + ".jpg")


# A tiny CBOR writer and reader for the COSE re-signing below (test code: the few types C2PA uses).
def cbor_head(major, value):
    if value < 24:
        return bytes([major << 5 | value])
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if value < 1 << (8 * size):
            return bytes([major << 5 | info]) + value.to_bytes(size, "big")
    raise ValueError(value)


def cbor_item_end(data, at):
    """Where the CBOR item that starts at `at` ends (definite lengths only)."""
    major, info = data[at] >> 5, data[at] & 0x1F
    at += 1
    if info < 24:
        value = info
    else:
        size = {24: 1, 25: 2, 26: 4, 27: 8}[info]
        value = int.from_bytes(data[at:at + size], "big")
        at += size
    if major in (2, 3):
        return at + value
    if major == 4:
        for _ in range(value):
            at = cbor_item_end(data, at)
        return at
    if major == 5:
        for _ in range(2 * value):
            at = cbor_item_end(data, at)
        return at
    if major == 6:
        return cbor_item_end(data, at)
    return at


def der_to_raw(der):
    """An ECDSA signature as DER (openssl dgst) to r‖s, as COSE writes it."""
    index = 2 if der[1] < 0x80 else 2 + (der[1] & 0x7F)
    raw = b""
    for _ in range(2):
        length = der[index + 1]
        raw += der[index + 2:index + 2 + length].lstrip(b"\0").rjust(32, b"\0")
        index += 2 + length
    return raw


def app11_payload_spans(data):
    """(start, end) in the file of each APP11 segment's box bytes after its 8-byte JP header."""
    spans, index = [], 2
    while index + 4 <= len(data) and data[index] == 0xFF and data[index + 1] != 0xDA:
        length = struct.unpack(">H", data[index + 2:index + 4])[0]
        if data[index + 1] == 0xEB and data[index + 4:index + 6] == b"JP":
            spans.append((index + 4 + 8, index + 2 + length))
        index += 2 + length
    return spans


def single_segment(data):
    spans = app11_payload_spans(data)
    assert len(spans) == 1, "the test photo's store should fit one segment"
    return spans[0]


def superbox_at(data, label, start, end):
    """(superbox start, its end, its cbor content box's payload start) of the superbox labelled `label`."""
    at = data.index(label + b"\x00", start, end)
    jumd = at - 17 - 8  # the description box: LBox, TBox, 16-byte UUID, toggles, then the label
    assert data[jumd + 4:jumd + 8] == b"jumd", data[jumd:jumd + 8]
    box = jumd - 8
    content = jumd + int.from_bytes(data[jumd:jumd + 4], "big")
    assert data[content + 4:content + 8] == b"cbor"
    return box, box + int.from_bytes(data[box:box + 4], "big"), content + 8


def with_payload(data, box, box_end, payload_start, payload):
    """The superbox at `box` with its cbor content `payload`, its and the content box's lengths set."""
    head = bytearray(data[box:payload_start])
    growth = len(payload) - (box_end - payload_start)
    head[0:4] = (box_end - box + growth).to_bytes(4, "big")
    content = payload_start - 8 - box
    head[content:content + 4] = (int.from_bytes(head[content:content + 4], "big") + growth).to_bytes(4, "big")
    return bytes(head) + payload


def chain_outside_protected(source, target, key):
    """`source` with its COSE x5chain moved from the protected header to the unprotected one, the
    claim signed again with `key` (so the signature holds). The store keeps its length, so nothing
    else moves: the claim's instanceID is shortened by what the signature grows."""
    data = bytes(open(source, "rb").read())
    start, end = single_segment(bytearray(data))
    claim_box, claim_end, claim_at = superbox_at(data, b"c2pa.claim.v2", start, end)
    sign_box, sign_end, cose_at = superbox_at(data, b"c2pa.signature", start, end)
    assert claim_end <= sign_box
    claim, cose = data[claim_at:claim_end], data[cose_at:sign_end]
    assert cose[0] == 0xD2 and cose[1] == 0x84, cose[:4]  # tag 18, an array of 4
    protected_end = cbor_item_end(cose, 2)
    header = {24: 2, 25: 3, 26: 5}.get(cose[2] & 0x1F, 1)
    # The protected bstr holds {1: -7, 33: chain}: a2 01 26 18 21, then the chain's item.
    inner = cose[2 + header:protected_end]
    assert inner[:5] == b"\xa2\x01\x26\x18\x21", inner[:8]
    chain = inner[5:]
    iid = claim.index(b"xmp:iid:")
    new_protected = b"\xa1\x01\x26"
    for shorter in range(1, 24):
        # The instanceID text keeps its one-byte length head (it is over 23 characters long).
        assert claim[iid - 2] == 0x78
        new_claim = claim[:iid - 1] + bytes([claim[iid - 1] - shorter]) + claim[iid:iid + claim[iid - 1] - shorter] + claim[iid + claim[iid - 1]:]
        to_sign = b"\x84" + cbor_head(3, 10) + b"Signature1" + cbor_head(2, len(new_protected)) + new_protected + b"\x40" \
            + cbor_head(2, len(new_claim)) + new_claim
        der = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key], input=to_sign, capture_output=True, check=True).stdout
        for pad in range(0, 20):
            unprotected = b"\xa2\x18\x21" + chain + b"\x63pad" + cbor_head(2, pad) + b"\0" * pad
            new = b"\xd2\x84" + cbor_head(2, len(new_protected)) + new_protected + unprotected + b"\xf6" + cbor_head(2, 64) + der_to_raw(der)
            if len(new) - len(cose) == shorter:
                out = data[:claim_box] + with_payload(data, claim_box, claim_end, claim_at, new_claim) + data[claim_end:sign_box] \
                    + with_payload(data, sign_box, sign_end, cose_at, new) + data[sign_end:]
                assert len(out) == len(data)
                open(target, "wb").write(out)
                return target
    raise ValueError("no length fits")


def last_assertion_zero_length(source, target):
    """`source` with the LBox of the last assertion superbox (the last box of the assertion store)
    set to 0, which ISO BMFF reads as "to the end of the box around it": the same bytes."""
    data = bytearray(open(source, "rb").read())
    start, end = single_segment(data)
    store = data.index(b"c2pa.assertions\x00", start, end) - 8 - 17 - 8  # its jumd's payload starts 8+8 after the superbox
    # Walk the assertion store's children to find its last box.
    size = int.from_bytes(data[store:store + 4], "big")
    assert data[store + 4:store + 8] == b"jumb", data[store:store + 8]
    at = store + 8
    at += int.from_bytes(data[at:at + 4], "big")  # its description box
    last = None
    while at < store + size:
        last = at
        at += int.from_bytes(data[at:at + 4], "big")
    data[last:last + 4] = b"\0\0\0\0"
    open(target, "wb").write(data)
    return target


def claim_of_another_type(source, target):
    """`source` with the claim superbox's content type UUID changed in its last byte (c2cl … 71 → 72)."""
    data = bytearray(open(source, "rb").read())
    start, end = single_segment(data)
    label = data.index(b"c2pa.claim.v2\x00", start, end)
    uuid_end = label - 1  # the toggles byte sits between the UUID and the label
    assert data[uuid_end - 16:uuid_end - 12] == b"c2cl", data[uuid_end - 16:uuid_end]
    data[uuid_end - 1] ^= 0x03
    open(target, "wb").write(data)
    return target


WORK = tempfile.mkdtemp(prefix="stampcam-c2pa-strict.")
try:
    ENV = isolated_env(WORK)
    os.chdir(WORK)
    root = fixtures.make_ca(WORK, name="Acme root CA")
    PLAIN = fixtures.make_jpeg(os.path.join(WORK, "plain.jpg"), width=256, height=192)
    EE = "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nsubjectKeyIdentifier=hash\n" \
         "authorityKeyIdentifier=keyid:always\n"
    SUBCA = "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign,digitalSignature\n" \
            "extendedKeyUsage=emailProtection\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid:always\n"
    cases = [
        ("emailProtection", EE + "extendedKeyUsage=emailProtection\n", "untrusted", False),
        ("documentSigning", EE + "extendedKeyUsage=1.3.6.1.5.5.7.3.36\n", None, False),
        ("c2paClaimSigning", EE + "extendedKeyUsage=1.3.6.1.4.1.62558.2.1\n", None, False),
        ("noDigitalSignature", EE.replace("digitalSignature", "keyEncipherment") + "extendedKeyUsage=emailProtection\n", "invalid", False),
        ("anyExtendedKeyUsage", EE + "extendedKeyUsage=anyExtendedKeyUsage\n", "invalid", False),
        ("serverAuthOnly", EE + "extendedKeyUsage=serverAuth\n", "invalid", False),
        ("noExtendedKeyUsage", EE, None, False),
        ("caFlag", EE.replace("CA:FALSE", "CA:TRUE") + "extendedKeyUsage=emailProtection\n", "invalid", False),
        ("subCA", SUBCA, "invalid", True),
    ]
    signed = {}
    for name, extensions, expect, _ in cases:
        cert, key = make_cert(name, extensions, root)
        photo = stamp(name, chain_file(name, cert, root[0]), key)
        signed[name] = (photo, cert, key)
        # Trusted through the root: the only thing left to judge is the signer's own certificate.
        agree(f"signer certificate {name}", photo, root[0], expect="valid" if expect == "untrusted" else expect)

    # A chain through an intermediate CA: trusted through the root alone; untrusted without it.
    intermediate = make_cert("Acme intermediate CA", "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n"
                             "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid:always\n", root)
    leaf = make_cert("through intermediate", EE + "extendedKeyUsage=emailProtection\n", intermediate)
    through = stamp("through", chain_file("through", leaf[0], intermediate[0], root[0]), leaf[1])
    line = agree("a chain through an intermediate, the root given", through, root[0], expect="valid")
    check("... the organisation is the signer's O=", line.get("organization") == "Acme Site Services", line.get("organization"))
    check("... the sentence names it", "Acme Site Services' camera signed it" in (line.get("sentence") or ""), line.get("sentence"))
    os.makedirs(os.path.join(WORK, "other"))
    other = fixtures.make_ca(os.path.join(WORK, "other"), name="another CA")
    agree("a chain through an intermediate, another CA given", through, other[0], expect="untrusted")
    code, line, err = verify(through, "--trust", other[0])
    check("untrusted with --trust given: the hint does not ask for --trust", "give the CA certificate with --trust" not in err
          and "none of the CA certificates given" in err, err)
    code, line, err = verify(through)
    check("untrusted without --trust: the hint names --trust", "--trust CA.pem" in err, err)

    # A kept parent altered: a photo the Builder signed, stamped again, then a byte of the kept
    # manifest's assertion changed.
    builder_cert, builder_key = fixtures.make_leaf(WORK, root)
    parent = fixtures.sign(PLAIN, os.path.join(WORK, "parent.jpg"), builder_cert, builder_key)
    child = stamp("child", chain_file("child", signed["emailProtection"][1], root[0]), signed["emailProtection"][2], source=parent)
    agree("a kept parent, untouched", child, root[0], expect="valid")
    data = bytearray(open(child, "rb").read())
    at = data.index(b"Bridge 7")  # in the parent's org.stampcam.stamp assertion (fixtures.STAMP)
    data[at] ^= 0x01
    tampered = os.path.join(WORK, "tampered-parent.jpg")
    open(tampered, "wb").write(data)
    line = agree("a kept parent altered after", tampered, root[0], expect="changed")
    check("... the sentence says the photo it was made from was changed", "made from" in (line.get("sentence") or ""), line.get("sentence"))
    check("... the parent does not hold", (line.get("parent") or {}).get("holds") is False, line.get("parent"))
    again = run("apply", tampered, "-o", os.path.join(WORK, "again"), "--stamp-again",
                "--signing-key", signed["emailProtection"][2], "--signing-cert", chain_file("again", signed["emailProtection"][1], root[0]))
    check("stamped again: a store that does not hold is not kept, with a warning",
          again.returncode == 0 and "not kept" in again.stderr and "do not hold" in again.stderr, again.stderr)
    if again.returncode == 0:
        agree("... and the new photo is valid", os.path.join(WORK, "again", "tampered-parent.jpg"), root[0], expect="valid")

    # Boxes and headers.
    base, base_cert, base_key = signed["emailProtection"]
    agree("a zero-length box", last_assertion_zero_length(base, os.path.join(WORK, "zero.jpg")), root[0])
    line = agree("a claim box of another type", claim_of_another_type(base, os.path.join(WORK, "claimtype.jpg")), root[0])
    check("... stampcam calls the credentials damaged (the reference finds no manifest)", line.get("damage") == "damaged", line)
    moved = chain_outside_protected(base, os.path.join(WORK, "unprotected.jpg"), base_key)
    agree("the certificate chain outside the protected header", moved, root[0])
    data = open(base, "rb").read()
    start, end = single_segment(bytearray(data))
    cut = os.path.join(WORK, "cut.jpg")
    open(cut, "wb").write(data[:(start + end) // 2])
    line = agree("a file cut inside its manifest store", cut, root[0])
    check("... stampcam says it is cut, not that it has no credentials",
          line.get("damage") == "cut" and "cut short" in (line.get("sentence") or ""), line)

    # verify --code: the logged file replaced by another signed photo.
    first = os.path.join(WORK, "first.jpg")
    second = os.path.join(WORK, "second.jpg")
    shutil.copy(PLAIN, first)
    fixtures.make_jpeg(second, width=200, height=150)
    result = run("apply", first, second, "-o", os.path.join(WORK, "logged"), "-t", "evidence", "--user", "Li Wei")
    check("apply logs two photos", result.returncode == 0, result.stderr)
    rows = [json.loads(line) for line in run("log", "--json").stdout.splitlines() if line.strip()]
    codes = {os.path.basename(row["path"]): row.get("code") for row in rows}
    check("log --json has each photo's code", all(codes.get(n) for n in ("first.jpg", "second.jpg")), rows)
    only = run("log", "--json", "--code", (codes.get("first.jpg") or "").lower().replace("-", " "))
    check("log --code finds the photo by its code as typed", [os.path.basename(json.loads(l)["path"]) for l in only.stdout.splitlines()]
          == ["first.jpg"], only.stdout + only.stderr)
    good = run("verify", "--json", "--code", codes.get("first.jpg") or "")
    check("verify --code on the logged photo: the code is its own", '"isLoggedPhoto":true' in good.stdout.replace(" ", ""), good.stdout)
    shutil.copy(os.path.join(WORK, "logged", "second.jpg"), os.path.join(WORK, "logged", "first.jpg"))
    replaced = run("verify", "--code", codes.get("first.jpg") or "")
    check("verify --code on a logged file replaced by another signed photo: exit 13", replaced.returncode == 13,
          f"exit {replaced.returncode}: {replaced.stderr}")
    check("... and it says it is not the photo logged", "not the photo logged" in replaced.stdout, replaced.stdout)
    check("... and never that the code matches", "matches" not in replaced.stdout, replaced.stdout)
    bad = run("verify", "--code", "K7MN-4XRT")
    check("a code too short: not a stampcam code, exit 64", bad.returncode == 64 and "is not a stampcam code" in bad.stderr
          and "no photo in the catalog" not in bad.stderr, (bad.returncode, bad.stderr))
    bad = run("verify", "--code", "K7MN-4XRT-90")
    check("a code with a 0: not a stampcam code, naming the character", bad.returncode == 64 and "'0'" in bad.stderr, (bad.returncode, bad.stderr))
    missing = run("verify", "--code", "K7MN-4XRT-9P")
    check("a well-formed code no photo has: exit 66", missing.returncode == 66 and "no photo in the catalog" in missing.stderr,
          (missing.returncode, missing.stderr))
finally:
    if os.environ.get("C2PA_KEEP"):
        print("kept", WORK)
    else:
        shutil.rmtree(WORK, ignore_errors=True)

print(f"c2pa-strict: {passed} passed, {failed} failed")
sys.exit(0 if failed == 0 else 1)
