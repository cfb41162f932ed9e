"""verify_test.py STAMPCAM — `make test-c2pa`: `stampcam verify` against the reference reader
(c2pa-python) on photos the reference Builder signs here: valid (trusted with --trust, not
without), one byte of picture changed, signature bytes altered, an expired signer (signed under
faketime while its certificate was valid), no manifest, and a batch of them. For each, stampcam's
outcome must be the one the reference reader's validation codes imply. Prints
`c2pa-verify: N passed, M failed`; exits 0 only when all passed."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import fixtures

STAMPCAM = os.path.realpath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
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


reference_outcome = fixtures.reference_outcome


def verify(*args):
    result = subprocess.run([STAMPCAM, "verify", "--json", *args], capture_output=True, text=True, env=ENV)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    return result.returncode, lines, result.stderr


def agree(what, photo, trust=None):
    """stampcam and the reference reader say the same of `photo`; returns stampcam's JSON line."""
    expected = reference_outcome(fixtures.reference_codes(photo, trust=trust))
    code, lines, err = verify(photo, *(["--trust", trust] if trust else []))
    line = lines[0] if lines else {}
    check(f"{what}: the reference says {expected}, stampcam agrees", line.get("outcome") == expected,
          f"stampcam: {line.get('outcome')} ({line.get('problem')})")
    check(f"{what}: exit {EXIT[expected]}", code == EXIT[expected], f"exit {code}: {err.strip()}")
    check(f"{what}: one line on stderr when not valid", (expected == "valid") == (err.strip() == "") and len(err.strip().splitlines()) <= 1, err)
    return line


def signature_box_end(data):
    """Where the COSE signature's CBOR box ends in `data`: the 64 signature bytes end there
    (the reference pads inside the unprotected header, before them)."""
    label = data.index(b"c2pa.signature\x00")
    box = label + len(b"c2pa.signature\x00")
    assert data[box + 4:box + 8] == b"cbor", data[box:box + 8]
    return box + int.from_bytes(data[box:box + 4], "big")


def scan_start(data):
    """The first byte of entropy-coded picture data (after the SOS segment)."""
    index = 2
    while True:
        marker, length = data[index + 1], int.from_bytes(data[index + 2:index + 4], "big")
        if marker == 0xDA:
            return index + 2 + length
        index += 2 + length


work = tempfile.mkdtemp(prefix="stampcam-c2pa.")
try:
    ENV = dict(os.environ, HOME=work, XDG_CONFIG_HOME=work + "/config", XDG_DATA_HOME=work + "/data")
    os.chdir(work)
    ca = fixtures.make_ca(work)
    chain, key = fixtures.make_leaf(work, ca)
    expired_chain, expired_key = fixtures.make_leaf(work, ca, name="expired signer", expired=True)
    plain = fixtures.make_jpeg(os.path.join(work, "plain.jpg"))
    signed = fixtures.sign(plain, os.path.join(work, "signed.jpg"), chain, key)

    line = agree("signed, CA given", signed, trust=ca[0])
    check("signed: signature valid, unchanged, trusted",
          line.get("signatureValid") and line.get("unchanged") and line.get("trusted") and line.get("credentials"), line)
    fingerprint = subprocess.run(["openssl", "x509", "-noout", "-fingerprint", "-sha256", "-in", os.path.join(work, "leaf.pem")],
                                 capture_output=True, text=True).stdout.strip().split("=", 1)[1]
    check("signed: the signer's fingerprint as openssl prints it", (line.get("signer") or {}).get("fingerprint") == fingerprint,
          f"{(line.get('signer') or {}).get('fingerprint')} != {fingerprint}")
    check("signed: the signer's subject", "CN=verify test signer" in (line.get("signer") or {}).get("subject", ""), line.get("signer"))
    stamp = line.get("stamp") or {}
    check("signed: the stamp assertion, with its time's source",
          stamp.get("user") == "Li Wei" and (stamp.get("time") or {}).get("source") == "GPS"
          and (stamp.get("fields") or {}).get("project") == "Bridge 7", stamp)
    text = subprocess.run([STAMPCAM, "verify", "--trust", ca[0], signed], capture_output=True, text=True, env=ENV).stdout
    check("signed: the text report prints the stamp nested", "    time:\n      source: GPS\n" in text, text)

    agree("signed, no CA given", signed)
    os.makedirs(work + "/config/stampcam")
    with open(work + "/config/stampcam/config.json", "w") as f:
        json.dump({"trust": ca[0]}, f)
    code, lines, err = verify(signed)
    check("signed: trusted through the config's \"trust\"", code == 0 and lines and lines[0].get("trusted"), f"exit {code}: {err}")
    os.remove(work + "/config/stampcam/config.json")

    changed = os.path.join(work, "changed.jpg")
    data = bytearray(open(signed, "rb").read())
    data[scan_start(data) + 20] ^= 0x01
    open(changed, "wb").write(data)
    agree("one byte of the picture changed", changed, trust=ca[0])

    forged = os.path.join(work, "forged.jpg")
    data = bytearray(open(signed, "rb").read())
    data[signature_box_end(data) - 10] ^= 0x01
    open(forged, "wb").write(data)
    agree("signature bytes altered", forged, trust=ca[0])

    expired = os.path.join(work, "expired.jpg")
    # The reference Builder refuses a certificate outside its validity, so it signs at a time inside it.
    subprocess.run(["faketime", "2020-06-01 12:00:00", sys.executable, "-c",
                    "import sys, fixtures; fixtures.sign(*sys.argv[1:5])", plain, expired, expired_chain, expired_key],
                   check=True, cwd=HERE, env=dict(os.environ, PYTHONPATH=HERE))
    agree("an expired signer", expired, trust=ca[0])

    agree("no manifest", plain, trust=ca[0])

    code, lines, err = verify("--trust", ca[0], signed, changed, plain, forged + ".missing")
    check("a batch: every photo reported", [l.get("path") for l in lines] == [signed, changed, plain, forged + ".missing"]
          and lines[-1].get("outcome") == "unreadable", lines)
    check("a batch: the worst outcome is the exit code (a missing file is worst)", code == 66, f"exit {code}")
    code, lines, err = verify("--trust", ca[0], signed, changed, plain)
    check("a batch: changed outranks no credentials", code == EXIT["changed"], f"exit {code}")
    check("a batch: one stderr line per photo that is not valid", len(err.strip().splitlines()) == 2, err)
finally:
    shutil.rmtree(work, ignore_errors=True)

print(f"c2pa-verify: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
