#!/usr/bin/env python3
"""Hostile numbers, black-box: ±inf, NaN, 1e308, -0 and integers past 2^63 (and a few more) in
every numeric field of every input stampcam reads, each value a run of its own:

  - the command line: every option of apply, restamp, log, export and report whose value is a
    number (found in each command's --help, so a new option is tried without editing this);
  - the config file: the same options as JSON numbers;
  - a template: every numeric key of a block and of the top level;
  - a GeoJSON sites file: a point's radius and a position's longitude, latitude and altitude;
  - the stamp record in a stamped photo's XMP (restamp reads it back);
  - EXIF GPS rationals (0/0, n/0, 2^32-1, -2^31 …) of a photo to stamp;
  - the catalog's rows (log, export, report read them back);
  - a team server: every numeric field of POST /api/photos and the JSON of the other routes, a
    request a value, and after each the server must answer the next request.

What must hold: no run ends by a signal (a Swift trap is SIGILL or SIGTRAP) or hangs; a refusal is
a usage or data error (64, 65) in one stderr line; an accepted value does its job (exit 0).

    hostile_numbers.py STAMPCAM          prints one line a check and "N passed, N failed"
"""
import json
import os
import re
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "lib"))
sys.path.insert(0, os.path.join(here, "..", "web"))
from stamptest import Checks, isolated_env, wait_until  # noqa: E402
from make_inputs import cjpeg, ifd, make_ppm, with_exif  # noqa: E402

# As typed (the command line, a form field): what Double(), Int() and strtod make of each differs.
TEXTS = ["inf", "-inf", "nan", "1e308", "-1e308", "1e400", "-0", "9223372036854775808", "-9223372036854775809",
         "18446744073709551616", "1e19", "0x1p1023", "4294967296", "-1"]
# As JSON numbers (JSON has no inf or NaN: 1e400 is what comes nearest, and must be refused as such).
JSON_NUMBERS = ["1e308", "-1e308", "1e400", "-0", "-0.0", "9223372036854775808", "-9223372036854775809",
                "18446744073709551616", "1e19", "1e-400", "4294967296", "-1"]
TIMEOUT = 60
checks = Checks()


def run(argv, env, timeout=TIMEOUT, stdin=subprocess.DEVNULL):
    """(status, stdout lines, stderr lines); status is -SIGNAL when a signal ended it, None when hung."""
    try:
        r = subprocess.run(argv, env=env, stdin=stdin, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, [], ["(still running after %d s)" % timeout]
    decode = lambda data: data.decode(errors="replace").splitlines()
    return r.returncode, decode(r.stdout), decode(r.stderr)


def judged(what, result, refusals=(64, 65), accepted=(0,), lines=(1,), says=None):
    """One check: no signal, no hang; a refusal in one of `lines` stderr line counts (the first containing `says`)."""
    status, _, err = result
    if status is None or status < 0 or status >= 128:
        name = signal.Signals(-status).name if status is not None and status < 0 else status
        return checks(what, False, "ended by %s: %s" % (name, err[-3:]))
    if status in accepted:
        return checks(what, True)
    ok = status in refusals and len(err) in lines and (says is None or says in err[0])
    return checks(what, ok, "exit %s, stderr %s" % (status, err[:4]))


def numeric_options(binary, env, command):
    """The options of `command` whose value is a number, from its --help (`--quality Q   …`)."""
    _, out, _ = run([binary, command, "--help"], env)
    options = []
    for line in out:
        m = re.match(r"\s+(?:-\w, )?(--[a-z-]+) ([A-Z][A-Z0-9_,/]*)\b", line)
        if m and not re.search(r"FILE|DIR|PATH|NAME|TEXT|STYLE|TEMPLATE|DEVICE|USER|PROJECT|NOTE|WHEN|LANG|TIME|DATE|"
                               r"KEY|CHAIN|CERT|FORMAT|LAYOUT|ID|ROLE|COMPANY|ADDR|HOST|ISO|ZONE|CODE", m.group(2)):
            options.append(m.group(1))
    return sorted(set(options))


def main(binary):
    work = tempfile.mkdtemp(prefix="stampcam-numbers-")
    try:
        env = isolated_env(os.path.join(work, "home"))
        os.makedirs(env["HOME"])
        photos = os.path.join(work, "photos")
        os.makedirs(photos)
        photo = os.path.join(photos, "photo.jpg")
        with open(photo, "wb") as f:
            f.write(cjpeg(make_ppm(320, 240, 7), "-quality", "85"))
        catalog = os.path.join(work, "catalog.sqlite")
        stamped = os.path.join(work, "stamped")
        result = run([binary, "apply", photo, "-o", os.path.join(work, "applied"), "--catalog", catalog, "--no-sign",
                      "--gps", "48.85,2.35"], env)
        # A photo with its original kept beside it (NAME.original.jpg), for restamp.
        shot = run([binary, "shoot", "--device", "test", "--yes", "--count", "1", "--keep-original", "--no-sign",
                    "--gps", "48.85,2.35", "--no-catalog", "-o", stamped], env)
        if result[0] != 0 or shot[0] != 0:
            sys.exit("numbers: making the base photos failed: %s %s" % (result, shot))
        stamped_photo = os.path.join(stamped, sorted(n for n in os.listdir(stamped) if n.endswith(".jpg") and ".original." not in n)[0])
        command_line(binary, env, work, photo, stamped_photo, catalog)
        config_file(binary, env, work, photo)
        template(binary, env, work, photo)
        sites(binary, env, work, photo)
        xmp_record(binary, env, work, stamped_photo)
        exif_rationals(binary, env, work)
        catalog_rows(binary, env, work, catalog)
        server(binary, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return checks.summary()


def command_line(binary, env, work, photo, stamped_photo, catalog):
    bases = {
        "apply": [photo, "-o", os.path.join(work, "cli-out"), "--no-sign", "--catalog", os.path.join(work, "cli.sqlite")],
        "restamp": [stamped_photo, "-t", "geo", "-o", os.path.join(work, "cli-restamp"), "--no-sign", "--catalog", os.path.join(work, "cli.sqlite")],
        "log": ["--catalog", catalog],
        "export": ["--catalog", catalog, "--csv", "-o", os.path.join(work, "cli-export.csv")],
        "report": ["--catalog", catalog, "-o", os.path.join(work, "cli-report.pdf")],
    }
    for command, base in bases.items():
        options = numeric_options(binary, env, command)
        checks("%s has numeric options to try (found %s)" % (command, " ".join(options)), options or command in ("log", "export"))
        # A position is three numbers in one value: each of them hostile in turn.
        formats = [(option, "%s") for option in options] + ([("--gps", "%s,2.35"), ("--gps", "48.85,%s"), ("--gps", "48.85,2.35,%s")]
                                                            if command in ("apply", "restamp") else
                                                            [("--near", "%s,2.35,100"), ("--near", "48.85,%s,100"), ("--near", "48.85,2.35,%s")])
        for option, format in formats:
            for value in TEXTS:
                shutil.rmtree(os.path.join(work, "cli-out"), ignore_errors=True)
                shutil.rmtree(os.path.join(work, "cli-restamp"), ignore_errors=True)
                # A report of the photos near a position that is a number, but not near the one logged, has none (66).
                judged("command line: %s %s %s" % (command, option, format % value),
                       run([binary, command] + base + [option, format % value], env), refusals=(64,), says=option,
                       accepted=(0, 66) if option == "--near" else (0,))


def config_file(binary, env, work, photo):
    config = os.path.join(env["XDG_CONFIG_HOME"], "stampcam", "config.json")
    os.makedirs(os.path.dirname(config), exist_ok=True)
    keys = [option[2:] for option in numeric_options(binary, env, "apply")]
    try:
        for key in keys:
            for value in JSON_NUMBERS:
                with open(config, "w") as f:
                    f.write('{"%s": %s}' % (key, value))
                shutil.rmtree(os.path.join(work, "config-out"), ignore_errors=True)
                judged("config: \"%s\": %s" % (key, value),
                       run([binary, "apply", photo, "-o", os.path.join(work, "config-out"), "--no-sign"], env), refusals=(64,))
    finally:
        os.remove(config)


TEMPLATE = {"version": 1, "id": "numbers", "order": 5, "margin": 0.02,
            "blocks": [{"anchor": "bottom-left", "margin": [0.02, 0.03], "maxWidth": 0.9, "lineSpacing": 0.2, "tabWidth": 4,
                        "font": {"size": 0.04}, "box": {"color": "#000000", "opacity": 0.5, "radius": 0.01, "padding": 0.02},
                        "shadow": {"color": "#000000", "offset": 0.06}, "outline": {"color": "#000000", "width": 0.08},
                        "lines": ["{date} {time}", "{seq:3} {altitude} {accuracy}"]}]}
TEMPLATE_NUMBERS = [["version"], ["order"], ["blocks", 0, "margin", 1], ["blocks", 0, "maxWidth"], ["blocks", 0, "lineSpacing"],
                    ["blocks", 0, "tabWidth"], ["blocks", 0, "font", "size"], ["blocks", 0, "box", "opacity"],
                    ["blocks", 0, "box", "radius"], ["blocks", 0, "box", "padding"], ["blocks", 0, "shadow", "offset"],
                    ["blocks", 0, "outline", "width"]]


def template(binary, env, work, photo):
    path = os.path.join(work, "numbers.json")
    for keys in TEMPLATE_NUMBERS:
        for value in JSON_NUMBERS:
            text = json.dumps(TEMPLATE)
            # The value goes in as written (json.dumps would turn 1e400 into Infinity).
            holder = TEMPLATE
            for key in keys[:-1]:
                holder = holder[key]
            saved = holder[keys[-1]]
            holder[keys[-1]] = "@@VALUE@@"
            text = json.dumps(TEMPLATE).replace('"@@VALUE@@"', value)
            holder[keys[-1]] = saved
            with open(path, "w") as f:
                f.write(text)
            shutil.rmtree(os.path.join(work, "template-out"), ignore_errors=True)
            judged("template: %s = %s" % (".".join(map(str, keys)), value),
                   run([binary, "apply", photo, "-o", os.path.join(work, "template-out"), "--no-sign", "-t", path], env))
    # A format number past 2^63 in a variable: {seq:N}, {mgrs:N}.
    for line in ["{seq:99999999999999999999}", "{seq:1000000000}", "{mgrs:18446744073709551616}", "{seq:-0}"]:
        with open(path, "w") as f:
            f.write(json.dumps(dict(TEMPLATE, blocks=[dict(TEMPLATE["blocks"][0], lines=[line])])))
        shutil.rmtree(os.path.join(work, "template-out"), ignore_errors=True)
        judged("template: the line %s" % line,
               run([binary, "apply", photo, "-o", os.path.join(work, "template-out"), "--no-sign", "-t", path], env))


def sites(binary, env, work, photo):
    path = os.path.join(work, "sites.geojson")
    point = lambda position, radius: {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"name": "Yard", "radius": radius}, "geometry": {"type": "Point", "coordinates": position}}]}
    for value in JSON_NUMBERS:
        for what, document in [("radius", point([2.35, 48.85], "@@")), ("longitude", point(["@@", 48.85], 50)),
                               ("latitude", point([2.35, "@@"], 50)), ("altitude", point([2.35, 48.85, "@@"], 50))]:
            with open(path, "w") as f:
                f.write(json.dumps(document).replace('"@@"', value))
            shutil.rmtree(os.path.join(work, "sites-out"), ignore_errors=True)
            judged("sites: a point's %s of %s" % (what, value),
                   run([binary, "apply", photo, "-o", os.path.join(work, "sites-out"), "--no-sign", "--sites", path,
                        "--gps", "48.85,2.35"], env), refusals=(64, 65))


def set_xmp(jpeg, name, value):
    """The JPEG with stampcam's `name` property in its XMP packet set to `value` (the APP1 length mended)."""
    at = 2
    while at + 4 <= len(jpeg):
        length = struct.unpack(">H", jpeg[at + 2:at + 4])[0]
        body = jpeg[at + 4:at + 2 + length]
        if jpeg[at + 1] == 0xE1 and body.startswith(b"http://ns.adobe.com/xap/1.0/\0"):
            packet, count = re.subn(rb'(stampcam:%s=")[^"]*(")' % name.encode(), rb"\g<1>" + value.encode() + rb"\g<2>", body)
            if count == 0:
                packet, count = re.subn(rb"(<stampcam:%s>)[^<]*(</stampcam:%s>)" % (name.encode(), name.encode()),
                                        rb"\g<1>" + value.encode() + rb"\g<2>", body)
            if count == 0:
                return None
            return jpeg[:at + 2] + struct.pack(">H", len(packet) + 2) + packet + jpeg[at + 2 + length:]
        at += 2 + length
    return None


def xmp_record(binary, env, work, stamped_photo):
    with open(stamped_photo, "rb") as f:
        original = f.read()
    folder = os.path.join(work, "xmp")
    for name in ["Latitude", "Longitude", "Altitude", "Sequence", "StyleVersion", "ClockDifference"]:
        for value in TEXTS:
            edited = set_xmp(original, name, value)
            if edited is None:
                checks("xmp: the stamped photo's record has %s" % name, name in ("Sequence", "Altitude", "ClockDifference"))
                break
            shutil.rmtree(folder, ignore_errors=True)
            # Beside its kept original and sidecar, as shoot --keep-original left it.
            shutil.copytree(os.path.dirname(stamped_photo), folder)
            with open(os.path.join(folder, os.path.basename(stamped_photo)), "wb") as f:
                f.write(edited)
            judged("xmp: restamp of a record with %s=%s" % (name, value),
                   run([binary, "restamp", os.path.join(folder, os.path.basename(stamped_photo)), "-o", os.path.join(folder, "out"),
                        "--no-sign", "-t", "geo", "--no-catalog"], env), refusals=(64, 65, 66))


def rational(numerator, denominator, signed=False):
    return struct.pack("<ii" if signed else "<II", numerator, denominator)


def exif_rationals(binary, env, work):
    base = cjpeg(make_ppm(160, 120, 3), "-quality", "80")
    hostile = [(0xFFFFFFFF, 1), (1, 0), (0, 0), (0xFFFFFFFF, 0xFFFFFFFF), (1, 0xFFFFFFFF)]
    signed = [(-0x80000000, 1), (0x7FFFFFFF, 1), (-0x80000000, -1), (1, 0), (-1, 0)]
    folder = os.path.join(work, "exif")
    for tag, name, count in [(0x0002, "GPSLatitude", 3), (0x0004, "GPSLongitude", 3), (0x0006, "GPSAltitude", 1),
                             (0x0011, "GPSImgDirection", 1)]:
        for kind, pairs in [(5, hostile), (10, signed)]:
            for numerator, denominator in pairs:
                value = b"".join(rational(numerator, denominator, kind == 10) for _ in range(count))
                gps = [(0x0001, 2, 2, b"N\0"), (0x0002, 5, 3, rational(48, 1) * 3), (0x0003, 2, 2, b"E\0"),
                       (0x0004, 5, 3, rational(2, 1) * 3), (0x0006, 5, 1, rational(35, 1))]
                gps = [entry for entry in gps if entry[0] != tag] + [(tag, kind, count, value)]
                ifd0_entries = [(0x8825, 4, 1, struct.pack("<I", 0))]
                gps_at = 8 + len(ifd(ifd0_entries, 8))
                tiff = b"II*\0" + struct.pack("<I", 8) + ifd([(0x8825, 4, 1, struct.pack("<I", gps_at))], 8) + ifd(gps, gps_at)
                payload = b"Exif\0\0" + tiff
                jpeg = with_exif(base, b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload)
                shutil.rmtree(folder, ignore_errors=True)
                os.makedirs(folder)
                path = os.path.join(folder, "gps.jpg")
                with open(path, "wb") as f:
                    f.write(jpeg)
                judged("exif: %s of %s %d/%d" % (name, "SRATIONAL" if kind == 10 else "RATIONAL", numerator, denominator),
                       run([binary, "apply", path, "-o", os.path.join(folder, "out"), "--no-sign", "-t", "geo"], env))


def catalog_rows(binary, env, work, catalog):
    columns = [("size", ["9223372036854775807", "-9223372036854775808", "1e308", "-0.0"]),
               ("latitude", ["1e308", "-1e308", "9e999", "-9e999", "-0.0", "9223372036854775807"]),
               ("longitude", ["1e308", "9e999", "-0.0"]),
               ("altitude", ["1e308", "-9e999", "9223372036854775807"]),
               ("heading", ["1e308", "9e999", "-0.0", "9223372036854775807"]),
               ("style_version", ["9223372036854775807", "-9223372036854775808", "1e308"]),
               ("logged_at", ["9223372036854775807", "-9223372036854775808", "1e308", "-9e999"]),
               ("time_utc", ["9223372036854775807", "-9223372036854775808"]),
               ("zone_assumed", ["9223372036854775807", "1e308"])]
    for column, values in columns:
        for value in values:
            copy = os.path.join(work, "rows.sqlite")
            shutil.copy(catalog, copy)
            database = sqlite3.connect(copy)
            # The CHECKs (latitude within ±90 …) are the writer's; a file edited by hand need not keep them.
            database.execute("PRAGMA ignore_check_constraints = ON")
            try:
                database.execute("UPDATE photos SET %s = %s" % (column, value))
            except sqlite3.Error:
                continue  # a STRICT column holds no such value: no catalog can
            finally:
                database.commit()
                database.close()
            for command in (["log"], ["log", "--json"], ["export", "--csv", "-o", os.path.join(work, "rows.csv")],
                            ["export", "--kml", "-o", os.path.join(work, "rows.kml")],
                            ["report", "-o", os.path.join(work, "rows.pdf")]):
                for made in ("rows.csv", "rows.kml", "rows.pdf"):
                    if os.path.exists(os.path.join(work, made)):
                        os.remove(os.path.join(work, made))
                # The row left out says so in a warning; a report with no other photo then has none (66).
                judged("catalog: %s = %s, then %s" % (column, value, " ".join(command[:2])),
                       run([binary] + command + ["--catalog", copy], env), refusals=(65, 66), lines=(1, 2))


def server(binary, work):
    from serve import Server
    from uploads import form, request, team_add
    import urllib.request
    tokens = {}

    def make_team(env):
        tokens["Ana"] = team_add(binary, env, "Ana")

    s = Server(binary, "--team", "--no-sign", keep_original=False, before=make_team)
    try:
        photo = cjpeg(make_ppm(320, 240, 11), "-quality", "85")

        def answers():
            try:
                return s.get("/api/state")[0] == 200
            except OSError:
                return False
        def send(fields):
            try:
                return request(s.port, form(photo, **fields), token=tokens["Ana"])
            except OSError as error:
                return None, str(error)
        base = {"latitude": "48.85", "longitude": "2.35", "accuracy": "8", "altitude": "35", "position_age": "1", "review": "0"}
        for field in ["latitude", "longitude", "accuracy", "altitude", "position_age", "review", "phone_time"]:
            for value in TEXTS:
                fields = dict(base, **{field: value})
                status, answer = send(fields)
                # A person may send 20 at once, then one a second: when told to wait, wait as long as told.
                for _ in range(10):
                    told = re.search(r"wait (\d+) s", str(answer)) if status == 429 else None
                    if not told:
                        break
                    time.sleep(int(told.group(1)))
                    status, answer = send(fields)
                # A photo kept for review is retaken, so the next one is not refused for too many waiting.
                if status == 200 and isinstance(answer, dict) and answer.get("saved") is False and answer.get("id"):
                    request(s.port, json.dumps({"id": answer["id"]}).encode(), token=tokens["Ana"], path="/api/photos/retake",
                            content_type="application/json")
                alive = s.process.poll() is None and answers()
                checks("server: POST /api/photos %s=%s: answered %s, then the next request" % (field, value, status),
                       status in (200, 400, 413, 422) and alive, "status %s %s; server %s" % (status, answer, "alive" if alive else "gone"))
                if not alive:
                    return
        routes = [("/api/zoom", "factor"), ("/api/zoom", "step"), ("/api/focus", "x"), ("/api/focus", "y"),
                  ("/api/style", "step"), ("/api/flash", "step")]
        for path, key in routes:
            for value in JSON_NUMBERS:
                body = '{"%s": %s}' % (key, value) if key != "x" and key != "y" else \
                    '{"x": %s, "y": 0.5}' % value if key == "x" else '{"x": 0.5, "y": %s}' % value
                req = urllib.request.Request(s.base.rstrip("/") + path, data=body.encode(), method="POST",
                                             headers={"Content-Type": "application/json", "X-Stampcam-Client": "numbers"})
                try:
                    with urllib.request.urlopen(req, timeout=30) as response:
                        status = response.status
                except urllib.error.HTTPError as error:
                    status = error.code
                except OSError as error:
                    status = str(error)
                alive = s.process.poll() is None and answers()
                checks("server: POST %s %s: answered %s, then the next request" % (path, body, status),
                       status in (200, 204, 400, 409, 422) and alive, "status %s; server %s" % (status, "alive" if alive else "gone"))
                if not alive:
                    return
    finally:
        s.stop(check=False)
        if s.process.returncode not in (0, None):
            checks("server: ended cleanly", False, "exit %s; stderr %s" % (s.process.returncode, s.stderr()[-2000:]))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(os.path.abspath(sys.argv[1])))
