"""verify_parent.py STAMPCAM — `make test-c2pa`: a photo the reference Builder (c2pa-python) signed,
stamped by `stampcam apply`, keeps its credentials: the reference Reader finds our photo valid (but
for our untrusted signer), two manifests, ours the active one, its parent ingredient pointing at the
source's manifest; `stampcam verify` agrees and says the photo has a parent with credentials. A
source store that is damaged falls back to naming the source by hash, with a warning. Prints
`c2pa-parent: N passed, M failed`; exits 0 only when all passed."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import c2pa

import fixtures

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from stamptest import isolated_env  # noqa: E402

STAMPCAM = os.path.realpath(sys.argv[1])
UNTRUSTED = "signingCredential.untrusted"
passed = failed = 0


def check(what, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok   - {what}")
    else:
        failed += 1
        print(f"FAIL - {what}" + (f": {detail}" if detail else ""))


def read(path):
    """The reference Reader's report of `path` and its failure codes (the active manifest's and any
    ingredient's)."""
    with open(path, "rb") as f:
        report = json.loads(c2pa.Reader("image/jpeg", f).json())
    codes = {status["code"] for status in report.get("validation_status") or []}
    results = report.get("validation_results") or {}
    for part in [results.get("activeManifest") or {}] + [d.get("validationDeltas") or d or {} for d in results.get("ingredientDeltas") or []]:
        codes |= {status["code"] for status in part.get("failure") or []}
    return report, codes


work = tempfile.mkdtemp(prefix="stampcam-c2pa-parent.")
try:
    env = isolated_env(work)
    ca = fixtures.make_ca(work)
    chain, key = fixtures.make_leaf(work, ca)
    plain = fixtures.make_jpeg(os.path.join(work, "plain.jpg"))
    inputs = os.path.join(work, "in")
    os.makedirs(inputs)
    source = fixtures.sign(plain, os.path.join(inputs, "signed.jpg"), chain, key)
    source_report, _ = read(source)
    source_label = source_report["active_manifest"]

    result = subprocess.run([STAMPCAM, "apply", source, "-o", os.path.join(work, "out"), "--user", "Li Wei",
                             "--time", "2026-11-29T14:05:09+08:00"], env=env, capture_output=True, text=True)
    check("apply on a photo the Builder signed succeeds", result.returncode == 0, result.stderr)
    check("apply does not warn that its credentials are not kept", "not kept" not in result.stderr, result.stderr)
    stamped = os.path.join(work, "out", "signed.jpg")
    report, codes = read(stamped)
    check("the reference finds it valid but for the untrusted signer", codes <= {UNTRUSTED}, sorted(codes))
    manifests = report.get("manifests") or {}
    check("two manifests", len(manifests) == 2, list(manifests))
    active = manifests.get(report.get("active_manifest")) or {}
    check("the active one is ours", any(i.get("name") == "stampcam" for i in active.get("claim_generator_info") or []),
          active.get("claim_generator_info"))
    check("the source's manifest is kept under its label", source_label in manifests and source_label != report.get("active_manifest"),
          list(manifests))
    ingredients = active.get("ingredients") or []
    check("its parent ingredient points at the source's manifest",
          len(ingredients) == 1 and ingredients[0].get("relationship") == "parentOf"
          and ingredients[0].get("active_manifest") == source_label, ingredients)
    with open(source, "rb") as f, open(stamped, "rb") as g:
        # The source's manifest superbox, byte for byte: its label's bytes and its signature are in ours.
        check("the source's manifest label is in the new file", source_label.encode() in g.read())

    text = subprocess.run([STAMPCAM, "verify", stamped], env=env, capture_output=True, text=True)
    line = subprocess.run([STAMPCAM, "verify", "--json", stamped], env=env, capture_output=True, text=True)
    outcome = json.loads(line.stdout.splitlines()[0]) if line.stdout.strip() else {}
    check("stampcam verify agrees: untrusted, signature valid, unchanged",
          outcome.get("outcome") == "untrusted" and outcome.get("signatureValid") and outcome.get("unchanged"), outcome)
    check("stampcam verify says it has a parent with credentials", "parent" in text.stdout and "credentials" in text.stdout, text.stdout)

    # A damaged source store (its box claims more bytes than its segments hold): stamped all the
    # same, named by hash, with the warning.
    data = bytearray(open(source, "rb").read())
    at = data.index(b"\xff\xeb") + 4 + 8  # marker, length, "JP", En, Z: then the superbox's LBox
    data[at:at + 4] = (int.from_bytes(data[at:at + 4], "big") + 1).to_bytes(4, "big")
    damaged = os.path.join(inputs, "damaged.jpg")
    open(damaged, "wb").write(data)
    result = subprocess.run([STAMPCAM, "apply", damaged, "-o", os.path.join(work, "out"), "--user", "Li Wei"],
                            env=env, capture_output=True, text=True)
    check("a damaged source store: stamped, with a warning that it is not kept",
          result.returncode == 0 and "not kept" in result.stderr and "damaged" in result.stderr, result.stderr)
    if result.returncode == 0:
        report, codes = read(os.path.join(work, "out", "damaged.jpg"))
        check("a damaged source store: one manifest, valid but for the signer",
              len(report.get("manifests") or {}) == 1 and codes <= {UNTRUSTED}, sorted(codes))
finally:
    if os.environ.get("C2PA_KEEP"):
        print("kept", work)
    else:
        shutil.rmtree(work, ignore_errors=True)

print(f"c2pa-parent: {passed} passed, {failed} failed")
sys.exit(0 if failed == 0 else 1)
