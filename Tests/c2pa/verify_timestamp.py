"""verify_timestamp.py STAMPCAM — `make test-c2pa`: time-stamped signatures (RFC 3161 in C2PA's
sigTst2) from a time-stamp authority made here (tsa.py: openssl's `ts -reply` behind HTTP).
stampcam signs with `--tsa`; the reference reader (c2pa-python) must validate and trust the
time-stamp, and both it and `stampcam verify` must find a time-stamped photo valid five years
later (faketime), when the certificate has ended, and one without a time-stamp expired. A token
moved from another photo does not count; a TSA that is down or silent costs the photo its
time-stamp, never the photo. Prints `c2pa-timestamp: N passed, M failed`."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from stamptest import Checks, isolated_env  # noqa: E402

import fixtures  # noqa: E402
import tsa  # noqa: E402

STAMPCAM = os.path.realpath(sys.argv[1])
LATER = "+1826d"  # five years on: the device certificate (two years) has ended, the CA (ten) has not
check = Checks()


def reference(photo, trust, when=None):
    """The reference reader's codes for `photo` with the anchors in `trust`, now or under faketime `when`."""
    if when is None:
        return fixtures.reference_codes(photo, trust=trust)
    script = "import json, sys, fixtures; print(json.dumps(sorted(fixtures.reference_codes(sys.argv[1], trust=sys.argv[2]))))"
    out = subprocess.run(["faketime", "-f", when, sys.executable, "-c", script, photo, trust], check=True,
                         capture_output=True, text=True, cwd=HERE, env=dict(os.environ, PYTHONPATH=HERE)).stdout
    return set(json.loads(out))


work = tempfile.mkdtemp(prefix="stampcam-tsa.")
responder = silent = None
try:
    env = isolated_env(work)

    def stampcam(*args, when=None):
        command = ([ "faketime", "-f", when] if when else []) + [STAMPCAM, *args]
        return subprocess.run(command, env=env, capture_output=True, text=True)

    def verify(photo, *args, when=None):
        result = stampcam("verify", "--json", *args, photo, when=when)
        lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
        return result.returncode, (lines[0] if lines else {}), result.stderr

    authority_ca, folder = tsa.make_authority(os.path.join(work, "tsa"))
    responder = tsa.Responder(folder)
    plain = fixtures.make_jpeg(os.path.join(work, "plain.jpg"))
    ca = os.path.join(work, "ca.pem")
    result = stampcam("keys", "export-ca")
    with open(ca, "w") as f:
        f.write(result.stdout)
    anchors = os.path.join(work, "anchors.pem")
    with open(anchors, "w") as f:
        f.write(open(ca).read() + open(authority_ca).read())

    def sign(name, *args):
        out = os.path.join(work, name)
        result = stampcam("apply", "--no-catalog", *args, plain, "-o", out)
        return result, os.path.join(out, "plain.jpg")

    result, stamped = sign("stamped", "--tsa", responder.url)
    check("signed with --tsa: exit 0, the TSA asked once, no note", result.returncode == 0 and responder.requests == 1
          and "time-stamp" not in result.stderr, f"exit {result.returncode}, {responder.requests} requests: {result.stderr}")
    codes = reference(stamped, anchors)
    check("the reference reader validates and trusts the time-stamp", {"timeStamp.validated", "timeStamp.trusted"} <= codes, codes)
    check("the reference reader finds nothing wrong", not any(c.endswith((".mismatch", ".untrusted", ".expired", ".malformed")) for c in codes), codes)
    code, line, err = verify(stamped, "--trust", ca, "--tsa-trust", authority_ca)
    stamp = line.get("timeStamp") or {}
    check("stampcam verify: valid, the time-stamp holds", code == 0 and stamp.get("matches") and stamp.get("trusted")
          and "test TSA" in (stamp.get("authority") or ""), f"exit {code}: {line} {err}")
    code, line, err = verify(stamped, "--trust", anchors)
    check("the TSA's CA given with --trust counts for time-stamps too", code == 0 and (line.get("timeStamp") or {}).get("trusted"), line)
    code, line, err = verify(stamped, "--trust", ca)
    check("without its TSA's CA: valid today, the time-stamp not trusted", code == 0 and not (line.get("timeStamp") or {}).get("trusted")
          and "--tsa-trust" in ((line.get("timeStamp") or {}).get("problem") or ""), line)

    result, unstamped = sign("unstamped")
    check("signed without --tsa: no time-stamp", result.returncode == 0 and verify(unstamped, "--trust", ca)[1].get("timeStamp") is None)

    # Five years later the device certificate has ended.
    codes = reference(stamped, anchors, when=LATER)
    check("five years later, the reference reader: the time-stamped photo is not expired",
          "signingCredential.expired" not in codes and "timeStamp.trusted" in codes, codes)
    code, line, err = verify(stamped, "--trust", ca, "--tsa-trust", authority_ca, when=LATER)
    check("five years later, stampcam verify: the time-stamped photo is valid (exit 0)", code == 0 and line.get("outcome") == "valid",
          f"exit {code}: {line.get('problem')} {err}")
    codes = reference(unstamped, anchors, when=LATER)
    check("five years later, the reference reader: the photo without a time-stamp is expired", "signingCredential.expired" in codes, codes)
    code, line, err = verify(unstamped, "--trust", ca, when=LATER)
    check("five years later, stampcam verify: the photo without a time-stamp is expired (exit 11)",
          code == 11 and "no time-stamp" in (line.get("problem") or ""), f"exit {code}: {line.get('problem')}")
    code, line, err = verify(stamped, "--trust", ca, when=LATER)
    check("five years later, an untrusted time-stamp does not count: expired, saying why",
          code == 11 and "time-stamp is not used" in (line.get("problem") or ""), f"exit {code}: {line.get('problem')}")
    codes = reference(stamped, ca, when=LATER)
    check("... and the reference reader agrees (timeStamp.untrusted, expired)",
          {"timeStamp.untrusted", "signingCredential.expired"} <= codes, codes)

    # A token moved from another photo stamps another signature.
    data = bytearray(open(stamped, "rb").read())

    def token_range(blob):
        start = blob.index(b"tstTokens")
        val = blob.index(b"cval", start) + 4
        head, length = blob[val], None
        if head == 0x59:
            length, val = int.from_bytes(blob[val + 1:val + 3], "big"), val + 3
        return val, length

    # An ECDSA signature's DER length varies by a byte or two: another photo's token of the same length.
    start, length = token_range(data)
    for attempt in range(12):
        result, other = sign(f"other{attempt}", "--tsa", responder.url)
        donor = open(other, "rb").read()
        donor_start, donor_length = token_range(donor)
        if donor_length == length:
            break
    check("another photo's token of the same length", length == donor_length and length is not None, (length, donor_length))
    data[start:start + length] = donor[donor_start:donor_start + donor_length]
    moved = os.path.join(work, "moved.jpg")
    open(moved, "wb").write(data)
    codes = reference(moved, anchors)
    check("a moved token: the reference reader says timeStamp.mismatch", "timeStamp.mismatch" in codes, codes)
    code, line, err = verify(moved, "--trust", ca, "--tsa-trust", authority_ca)
    check("a moved token: stampcam says it is for other data and does not use it", code == 0
          and not (line.get("timeStamp") or {}).get("matches") and "other data" in ((line.get("timeStamp") or {}).get("problem") or ""), line)
    code, line, err = verify(moved, "--trust", ca, "--tsa-trust", authority_ca, when=LATER)
    check("a moved token, five years later: expired in stampcam", code == 11, f"exit {code}: {line.get('problem')}")
    check("... and in the reference reader", "signingCredential.expired" in reference(moved, anchors, when=LATER))

    # A TSA that is down, or silent: the photo is saved and signed, with a note.
    for label, url in (("down", tsa.down_url()), ("silent", None)):
        if url is None:
            silent = tsa.Silent()
            url = silent.url
        result, photo = sign(label, "--tsa", url)
        check(f"a TSA that is {label}: the photo is saved (exit 0)", result.returncode == 0 and os.path.exists(photo), result.stderr)
        check(f"a TSA that is {label}: a note says it is not time-stamped", "not time-stamped" in result.stderr and url in result.stderr,
              result.stderr)
        code, line, err = verify(photo, "--trust", ca)
        check(f"a TSA that is {label}: the photo verifies, without a time-stamp", code == 0 and line.get("timeStamp") is None, line)
        check(f"a TSA that is {label}: the reference reader finds it valid", reference(photo, anchors) & {"claimSignature.validated"}
              and not any(c.endswith(".mismatch") for c in reference(photo, anchors)))

    result = stampcam("apply", "--tsa", "https://tsa.example.com/", plain, "-o", os.path.join(work, "https"))
    check("--tsa https://…: a usage error naming http://", result.returncode == 64 and "http://" in result.stderr, result.stderr)
    os.makedirs(os.path.join(work, "config", "stampcam"), exist_ok=True)
    with open(os.path.join(work, "config", "stampcam", "config.json"), "w") as f:
        json.dump({"tsa": responder.url}, f)
    before = responder.requests
    result, photo = sign("configured")
    check("\"tsa\" in the config time-stamps too", result.returncode == 0 and responder.requests == before + 1
          and (verify(photo, "--trust", anchors)[1].get("timeStamp") or {}).get("trusted"), result.stderr)
finally:
    for server in (responder, silent):
        if server:
            server.close()
    shutil.rmtree(work, ignore_errors=True)

check.summary()
sys.exit(0 if check.all_passed else 1)
