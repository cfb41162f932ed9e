"""verify_renewal.py STAMPCAM — `make test-c2pa`: the installation's certificate over the years
(faketime). Within 60 days of its end the next photo renews it, saying so, and the photo signed
with the renewed certificate is valid to the reference reader; with the CA key kept elsewhere,
`doctor` warns ahead, a photo-writing command says how to renew once it has ended (and `keys
renew --ca-key` does), while `keys export-ca` and `verify` work whatever the dates."""
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

STAMPCAM = os.path.realpath(sys.argv[1])
check = Checks()
work = tempfile.mkdtemp(prefix="stampcam-renewal.")
try:
    env = isolated_env(work)

    def stampcam(*args, when=None):
        return subprocess.run((["faketime", "-f", when] if when else []) + [STAMPCAM, *args], env=env, capture_output=True, text=True)

    plain = fixtures.make_jpeg(os.path.join(work, "plain.jpg"))
    result = stampcam("keys", "init", "--org", "Acme Site Services")
    check("keys init --org: exit 0", result.returncode == 0, result.stderr)
    ca = os.path.join(work, "ca.pem")
    open(ca, "w").write(stampcam("keys", "export-ca").stdout)
    keys = os.path.join(work, "data", "stampcam", "keys")

    result = stampcam("apply", "--no-catalog", plain, "-o", os.path.join(work, "now"))
    check("a photo now: no renewal", result.returncode == 0 and "renewed" not in result.stderr, result.stderr)
    result = stampcam("doctor", when="+690d")
    check("doctor 40 days before the end: it is renewed with the next photo", "renewed with the next photo" in result.stdout, result.stdout)
    result = stampcam("apply", "--no-catalog", plain, "-o", os.path.join(work, "later"), when="+690d")
    check("a photo 40 days before the end renews the certificate, saying so", result.returncode == 0
          and "renewed the signing certificate" in result.stderr, result.stderr)
    renewed = os.path.join(work, "later", "plain.jpg")
    codes = subprocess.run(["faketime", "-f", "+690d", sys.executable, "-c",
                            "import json, sys, fixtures; print(json.dumps(sorted(fixtures.reference_codes(sys.argv[1], trust=sys.argv[2]))))",
                            renewed, ca], capture_output=True, text=True, cwd=HERE, env=dict(os.environ, PYTHONPATH=HERE)).stdout
    codes = set(json.loads(codes or "[]"))
    check("the reference reader: the photo signed after renewal is valid and trusted",
          {"claimSignature.validated", "signingCredential.trusted"} <= codes and not any(c.endswith((".expired", ".untrusted")) for c in codes), codes)
    line = json.loads(stampcam("verify", "--json", "--trust", ca, renewed, when="+690d").stdout)
    check("stampcam verify: valid, signed by Acme Site Services", line.get("outcome") == "valid"
          and (line.get("signer") or {}).get("organization") == "Acme Site Services", line)

    # The CA key goes offline; two years after the renewal the certificate has ended.
    offline = os.path.join(work, "usb-ca.key")
    shutil.move(os.path.join(keys, "ca.key"), offline)
    result = stampcam("doctor", when="+1390d")
    check("doctor, CA key offline, 30 days before the end: a warning naming keys renew --ca-key",
          "warning" in result.stdout and "keys renew --ca-key" in result.stdout, result.stdout)
    result = stampcam("apply", "--no-catalog", plain, "-o", os.path.join(work, "warned"), when="+1390d")
    check("a photo then: signed, with a warning that says where to renew", result.returncode == 0
          and "keys renew --ca-key" in result.stderr, result.stderr)
    ended = "+1500d"
    result = stampcam("apply", "--no-catalog", plain, "-o", os.path.join(work, "ended"), when=ended)
    check("after the end, CA key offline: one line saying how to renew, exit 69, no photo",
          result.returncode == 69 and "keys renew --ca-key" in result.stderr and len(result.stderr.strip().splitlines()) == 1
          and not os.path.exists(os.path.join(work, "ended", "plain.jpg")), f"exit {result.returncode}: {result.stderr}")
    result = stampcam("keys", "export-ca", when=ended)
    check("after the end: keys export-ca still prints the CA (exit 0)", result.returncode == 0 and result.stdout == open(ca).read(),
          f"exit {result.returncode}: {result.stderr}")
    result = stampcam("verify", "--trust", ca, renewed, when=ended)
    check("after the end: verify still runs (the photo without a time-stamp: expired, exit 11)", result.returncode == 11, result.stderr)
    result = stampcam("keys", "renew", when=ended)
    check("keys renew without the CA key: says where it is needed", result.returncode == 69 and "--ca-key" in result.stderr, result.stderr)
    result = stampcam("keys", "renew", "--ca-key", offline, when=ended)
    check("keys renew --ca-key FILE: renewed", result.returncode == 0 and "renewed" in result.stderr, result.stderr)
    result = stampcam("apply", "--no-catalog", plain, "-o", os.path.join(work, "again"), when=ended)
    check("and photos are signed again", result.returncode == 0 and os.path.exists(os.path.join(work, "again", "plain.jpg")), result.stderr)
    os.chmod(os.path.join(keys, "device.key"), 0o644)
    result = stampcam("apply", "--no-catalog", plain, "-o", os.path.join(work, "unsafe"))
    check("a device key others can read: refused, naming chmod 600", result.returncode == 65 and "chmod 600" in result.stderr, result.stderr)
finally:
    shutil.rmtree(work, ignore_errors=True)

check.summary()
sys.exit(0 if check.all_passed else 1)
