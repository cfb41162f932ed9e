#!/usr/bin/env python3
"""make test-c2pa: the reference C2PA reader (c2pa-python, in a venv under .build) reads the photos
stampcam signs.

    Tests/c2pa/run.py STAMPCAM        (run with the venv's python)

Photos are made here: a generated PPM encoded with cjpeg, and a copy of it with an EXIF
orientation of 6. They go through `apply` (re-encoded at 1024 px, and in place at full size with
--max-size 0); the test pattern through `shoot --keep-original`, then `restamp`. For each signed
photo the reader must find the manifest valid, with the untrusted signer (our own CA is on no
trust list) as its only complaint, our `org.stampcam.stamp` assertion with the user and time
given, and the actions: a capture created, or the original opened as the parent ingredient, then
the stamp as an edit (restamp's parent is the photo it makes again, its signed capture record
kept). One byte of the entropy-coded data flipped must give the data hash
mismatch; a store over 64 KB must be read back from its APP11 segments; a missing key must stop
the run before any photo; --no-sign must say so. C2PA_KEEP=1 keeps the temp folder."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from stamptest import Checks, isolated_env  # noqa: E402

import c2pa  # noqa: E402

UNTRUSTED = "signingCredential.untrusted"
MISMATCH = "assertion.dataHash.mismatch"


def ppm(width, height):
    """A picture with detail in every block (gradients and a checkerboard), as binary PPM."""
    rows = bytearray()
    for y in range(height):
        for x in range(width):
            check = 60 if (x // 16 + y // 16) % 2 else 0
            rows += bytes(((x * 255 // width + check) % 256, (y * 255 // height) % 256, (x * y // 64 + check) % 256))
    return b"P6 %d %d 255\n" % (width, height) + bytes(rows)


def with_orientation(jpeg, orientation):
    """`jpeg` with an EXIF APP1 segment holding only Orientation, right after SOI."""
    ifd = struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + ifd
    body = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + jpeg[2:]


def read(path):
    """What the reader says: (the store as JSON, the validation failure codes)."""
    reader = c2pa.Reader(path)
    store = json.loads(reader.json())
    codes = [status["code"] for status in store.get("validation_status") or []]
    results = store.get("validation_results") or {}
    for part in [results.get("activeManifest") or {}] + [i or {} for i in results.get("ingredientDeltas") or []]:
        codes += [status["code"] for status in part.get("failure") or []]
    return store, sorted(set(codes))


def app11_segments(path):
    """How many JPEG-XT APP11 segments (marker, length, "JP") the file has."""
    with open(path, "rb") as f:
        return len(re.findall(rb"\xff\xeb..JP", f.read(), re.S))


def active(store):
    return store["manifests"][store["active_manifest"]]


def assertion(manifest, label):
    for entry in manifest.get("assertions") or []:
        if entry.get("label") == label:
            return entry.get("data")
    return None


def scan_start(jpeg):
    """The offset of the first byte after the SOS segment's header."""
    offset = 2
    while offset + 4 <= len(jpeg):
        marker, length = jpeg[offset + 1], struct.unpack(">H", jpeg[offset + 2:offset + 4])[0]
        if marker == 0xDA:
            return offset + 2 + length
        offset += 2 + length
    raise ValueError("no SOS")


def main():
    stampcam = sys.argv[1]
    check = Checks()
    work = tempfile.mkdtemp(prefix="stampcam-c2pa-")
    env = isolated_env(work)

    def run(*arguments):
        return subprocess.run([stampcam, *arguments], env=env, capture_output=True, text=True)

    source = os.path.join(work, "photo.ppm")
    with open(source, "wb") as out:
        out.write(ppm(640, 480))
    inputs = os.path.join(work, "in")
    os.makedirs(inputs)
    plain = os.path.join(inputs, "plain.jpg")
    subprocess.run(["cjpeg", "-quality", "90", "-outfile", plain, source], check=True)
    with open(plain, "rb") as f:
        jpeg = f.read()
    turned = os.path.join(inputs, "turned.jpg")
    with open(turned, "wb") as out:
        out.write(with_orientation(jpeg, 6))

    given = ["--user", "Li Wei <li@example.org>", "--project", "Bridge 7", "--time", "2026-11-29T14:05:09+08:00",
             "-t", "site-report"]

    IPTC = "http://cv.iptc.org/newscodes/digitalsourcetype/"

    def signed_as_expected(label, path, opened=None, source="digitalCapture"):
        """`opened`: the title of the parent ingredient; None for a photo made by the camera, whose
        `source` is IPTC's digital source type (the built-in test pattern is algorithmicMedia)."""
        try:
            store, codes = read(path)
        except Exception as error:  # the reader refusing the file is a failure to report, not a crash
            check(label + ": the reader reads it", False, error)
            return None
        check(label + ": valid but for the untrusted signer", set(codes) <= {UNTRUSTED}, codes)
        manifest = active(store)
        check(label + ": claim generator is stampcam",
              any(info.get("name") == "stampcam" for info in manifest.get("claim_generator_info") or []),
              manifest.get("claim_generator_info"))
        stamp = assertion(manifest, "org.stampcam.stamp")
        check(label + ": our assertion is there", stamp is not None, [a.get("label") for a in manifest.get("assertions") or []])
        actions = (assertion(manifest, "c2pa.actions.v2") or {}).get("actions") or []
        names = [a.get("action") for a in actions]
        ingredients = manifest.get("ingredients") or []
        if opened is None:
            check(label + ": created (" + source + "), then stamped", names == ["c2pa.created", "c2pa.edited"]
                  and actions[0].get("digitalSourceType") == IPTC + source, actions)
            check(label + ": no ingredient", ingredients == [], ingredients)
        else:
            check(label + ": the original is opened, then stamped", names == ["c2pa.opened", "c2pa.edited"], names)
            check(label + ": the original is the parent ingredient, named by its hash",
                  len(ingredients) == 1 and ingredients[0].get("title") == opened
                  and ingredients[0].get("relationship") == "parentOf"
                  and (ingredients[0].get("instance_id") or "").startswith("sha256:"), ingredients)
        return stamp

    def stamped_with_given(label, stamp):
        if not stamp:
            return
        check(label + ": it names the user", stamp.get("user") == "Li Wei <li@example.org>", stamp)
        time = stamp.get("time") or {}
        check(label + ": it has the time given, its source and zone",
              time.get("value") == "2026-11-29T14:05:09+08:00" and time.get("source") and time.get("zone") == "+08:00", time)
        check(label + ": it has the style", (stamp.get("style") or {}).get("id") == "site-report", stamp.get("style"))
        check(label + ": it has what the stamp shows", (stamp.get("fields") or {}).get("user") == "Li Wei <li@example.org>",
              stamp.get("fields"))

    outputs = {}
    for label, arguments in [("apply", ["-o", os.path.join(work, "resized")]),
                             ("apply --max-size 0 (in place)", ["--max-size", "0", "-o", os.path.join(work, "full")])]:
        result = run("apply", plain, turned, *arguments, *given)
        check(label + " succeeds", result.returncode == 0, result.stderr)
        for name in ["plain.jpg", "turned.jpg"]:
            path = os.path.join(arguments[-1], name)
            outputs.setdefault(label, []).append(path)
            stamp = signed_as_expected("%s %s" % (label, name), path, opened=name)
            stamped_with_given("%s %s" % (label, name), stamp)
            if label.startswith("apply --max-size 0") and stamp is not None:
                # The first run logged its photos: the photo log's head is recorded.
                head = stamp.get("chainHead") or ""
                check("%s %s: it records the photo log's chain head" % (label, name),
                      len(head) == 64 and all(c in "0123456789abcdef" for c in head), stamp.get("chainHead"))

    # A photo taken (the test pattern) with its original kept, then stamped again in another style.
    shot = run("shoot", "--yes", "--device", "test", "--keep-original", "-o", os.path.join(work, "shot"), *given)
    check("shoot succeeds", shot.returncode == 0 and shot.stdout.strip(), shot.stderr)
    if shot.returncode == 0 and shot.stdout.strip():
        taken = shot.stdout.strip().splitlines()[-1]
        stamped_with_given("shoot", signed_as_expected("shoot", taken, source="algorithmicMedia"))
        restamped = run("restamp", taken, "-t", "minimal", "-o", os.path.join(work, "restamped"))
        check("restamp succeeds", restamped.returncode == 0 and restamped.stdout.strip(), restamped.stderr)
        if restamped.returncode == 0 and restamped.stdout.strip():
            # Its parent is the photo made again, whose signed capture record is kept.
            remade = restamped.stdout.strip().splitlines()[-1]
            signed_as_expected("restamp", remade, opened=os.path.basename(taken))
            try:
                store, _ = read(remade)
                ingredient = (active(store).get("ingredients") or [{}])[0]
                parent = store["manifests"].get(ingredient.get("active_manifest") or "", {})
                names = [a.get("action") for a in (assertion(parent, "c2pa.actions.v2") or {}).get("actions") or []]
            except Exception as error:
                names = [str(error)]
            check("restamp keeps the signed capture record: its parent's manifest, created (the test pattern's)",
                  names[:1] == ["c2pa.created"], names)

    # A photo signed already, stamped again: its credentials are kept as the parent's, without a warning.
    again = run("apply", outputs["apply"][0], "-o", os.path.join(work, "again"), "--stamp-again")
    check("a signed photo stamped again: its credentials kept, no warning",
          again.returncode == 0 and "not kept" not in again.stderr, again.stderr)
    if again.returncode == 0:
        signed_as_expected("a signed photo stamped again", os.path.join(work, "again", "plain.jpg"), opened="plain.jpg")

    # A store over 64 KB (a style showing 400 values, each as long as a stamp keeps one): cut into
    # APP11 segments the reader joins.
    style = os.path.join(work, "many.json")
    lines = ["".join("{v%d}" % i for i in range(row * 20, row * 20 + 20)) for row in range(20)]
    with open(style, "w") as out:
        json.dump({"version": 1, "id": "many", "blocks": [{"lines": lines}]}, out)
    values = [argument for i in range(400) for argument in ("--set", "v%d=%s%03d" % (i, "x" * 190, i))]
    big = run("apply", plain, "-o", os.path.join(work, "big"), "-t", style, *values)
    check("apply with 400 long values succeeds", big.returncode == 0, big.stderr)
    big_photo = os.path.join(work, "big", "plain.jpg")
    if big.returncode == 0:
        check("its store takes several APP11 segments", app11_segments(big_photo) >= 2, app11_segments(big_photo))
        try:
            _, codes = read(big_photo)
        except Exception as error:
            codes = [str(error)]
        check("the reader joins them: valid but for the untrusted signer", set(codes) <= {UNTRUSTED}, codes)

    # One byte of the picture changed: the hard binding no longer holds.
    target = outputs["apply"][0]
    with open(target, "rb") as f:
        data = bytearray(f.read())
    at = scan_start(bytes(data)) + 100
    data[at] ^= 0x01 if data[at] not in (0xFE, 0xFF) else 0x02
    flipped = os.path.join(work, "flipped.jpg")
    with open(flipped, "wb") as out:
        out.write(data)
    try:
        _, codes = read(flipped)
    except Exception as error:
        codes = [str(error)]
    check("a flipped picture byte gives the data hash mismatch", MISMATCH in codes, codes)

    # A key that does not exist: one line, a non-zero exit, and no photo at all.
    missing = run("apply", plain, "-o", os.path.join(work, "nokey"), "--signing-key", os.path.join(work, "none.key"),
                  "--signing-cert", os.path.join(work, "none.pem"))
    check("a missing signing key is one line and a non-zero exit", missing.returncode != 0
          and len(missing.stderr.strip().splitlines()) == 1 and "none.key" in missing.stderr, (missing.returncode, missing.stderr))
    check("... and no photo is written", not os.path.exists(os.path.join(work, "nokey", "plain.jpg")))

    # --no-sign: no manifest, and the run says so.
    unsigned = run("apply", plain, "-o", os.path.join(work, "unsigned"), "--no-sign", *given)
    check("apply --no-sign succeeds and says the photos are not signed",
          unsigned.returncode == 0 and "not signed" in unsigned.stderr, unsigned.stderr)
    check("--no-sign writes no APP11 segment", app11_segments(os.path.join(work, "unsigned", "plain.jpg")) == 0)
    if os.environ.get("C2PA_KEEP") == "1":
        print("kept " + work)
    else:
        shutil.rmtree(work)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
