"""The lead's page's API over real sockets (`serve --team` on 0.0.0.0, reached on this machine's
network address, so every request needs a token): a member's token gets 403 JSON and nothing of
the team's data on every lead route, no token 401, a removed lead 401 at once, this machine itself
without a token gets in; the day lists the photos uploaded and `apply`'d into the served catalog,
numbered in the order taken, filtered by day, person, site and project; hostile filters and ids;
a photo file deleted or replaced after it was logged; two leads adding people at once; the report,
KMZ and CSV of a filter (pdfinfo/pdftotext, zipfile + XML, csv) while photos arrive."""
import csv
import http.client
import io
import json
import os
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ElementTree
import zipfile

from serve import Server, check
from uploads import form, picture, request, team_add

LEAD_ROUTES = ["/team", "/lead.js", "/lead.css", "/api/team/day", "/api/team/people", "/api/team/plan.svg",
               "/api/team/report.pdf", "/api/team/photos.kmz", "/api/team/photos.csv", "/api/team/thumbnail?id=x",
               "/api/team/photo?id=x", "/api/team/image?id=x", "/api/team/qr.svg?name=Ana"]


def fetch(host, port, path, token=None, method="GET", body=None):
    """(status, headers, body bytes) of one request over a fresh connection."""
    connection = http.client.HTTPConnection(host, port, timeout=120)
    headers = {"Host": "%s:%d" % (host, port)}
    if token:
        headers["Authorization"] = "Bearer " + token
    if body is not None:
        headers["Content-Type"] = "application/json"
        body = json.dumps(body).encode()
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, dict(response.getheaders()), data


def as_json(data):
    try:
        return json.loads(data)
    except ValueError:
        return None


def jpeg_size(jpeg):
    """(width, height) from a JPEG's frame header."""
    at = 2
    while at < len(jpeg):
        marker, length = jpeg[at + 1], struct.unpack(">H", jpeg[at + 2:at + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", jpeg[at + 5:at + 9])
            return width, height
        at += 2 + length
    raise ValueError("no frame header")


def make_photos(folder, count, seed=10, size=(160, 120)):
    """`count` small JPEGs in `folder` (made by cjpeg, no EXIF: their time is the file's)."""
    os.makedirs(folder, exist_ok=True)
    paths = []
    for index in range(count):
        path = os.path.join(folder, "IMG_%04d.jpg" % index)
        with open(path, "wb") as f:
            f.write(picture(size[0], size[1], seed=seed + index))
        paths.append(path)
    return paths


def apply(binary, env, paths, out, *args):
    done = subprocess.run([binary, "apply", *args, "-o", out, *paths], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError("apply failed: " + done.stderr)


def main(binary):
    tokens = {}

    def make_team(env):
        tokens["Ana"] = team_add(binary, env, "Ana")
        tokens["Lee"] = team_add(binary, env, "Lee", "--lead")
        tokens["Bo"] = team_add(binary, env, "Bo", "--lead")

    server = Server(binary, "--team", "--listen", "0.0.0.0:0", "--max-size", "0", keep_original=False, before=make_team)
    host = urllib.parse.urlsplit(server.base).hostname
    port = server.port
    check(host != "127.0.0.1", "the server is reached on this machine's network address (%s)" % host)
    lead, member = tokens["Lee"], tokens["Ana"]
    out = subprocess.run([binary, "team", "list", "--json"], env=server.env, capture_output=True, text=True).stdout
    check({json.loads(line)["name"]: json.loads(line)["lead"] for line in out.splitlines()} == {"Ana": False, "Lee": True, "Bo": True},
          "team list --json says who leads")
    added = subprocess.run([binary, "team", "add", "Cy", "--lead"], env=server.env, capture_output=True, text=True).stdout
    check("/team?token=" in added, "a lead's link opens /team (%s)" % added.strip()[:60])
    subprocess.run([binary, "team", "remove", "Cy"], env=server.env, check=True, capture_output=True)
    try:
        # Photos: Ana's four with positions (two on one spot), Lee's one, and two apply'd by Carol,
        # one of them yesterday's (its file time).
        for index, (lat, lon) in enumerate([(60.1699, 24.9384), (60.1699, 24.9384), (60.1702, 24.9390), (60.1710, 24.9401)]):
            status, answer = request(port, form(picture(640, 480, seed=index), review="0", project="Bridge", latitude=str(lat),
                                                longitude=str(lon), accuracy="5"), token=member, source=host)
            check(status == 200, "Ana's photo %d saved (%s)" % (index + 1, status))
        status, answer = request(port, form(picture(640, 480, seed=9), review="0", project="Depot"), token=lead, source=host)
        check(status == 200, "Lee's photo saved (%s)" % status)
        sources = make_photos(os.path.join(server.folder, "camera"), 2)
        yesterday = time.time() - 86400
        os.utime(sources[1], (yesterday, yesterday))
        apply(binary, server.env, sources, os.path.join(server.folder, "applied"), "--user", "Carol", "--project", "Depot")

        # Who may look.
        for path in LEAD_ROUTES:
            status, headers, data = fetch(host, port, path, token=member)
            answer = as_json(data)
            check(status == 403 and headers.get("Content-Type", "").startswith("application/json") and set(answer or {}) == {"error"}
                  and not any(name in data.decode("utf-8", "replace") for name in ("Ana", "Lee", "Carol", "Bridge", "Depot", ".jpg")),
                  "a member's token gets 403 JSON and no team data on %s (%s %s)" % (path, status, data[:120]))
            status, _, data = fetch(host, port, path)
            check(status == 401 and (not path.startswith("/api/") or set(as_json(data) or {}) == {"error"}) and b"Ana" not in data,
                  "no token gets 401 on %s (%s)" % (path, status))
        for path, body in [("/api/team/people", {"name": "Mallory"}), ("/api/team/people/remove", {"name": "Lee"})]:
            status, _, data = fetch(host, port, path, token=member, method="POST", body=body)
            check(status == 403, "a member cannot change the team through %s (%s)" % (path, status))
        status, _, data = fetch(host, port, "/api/team/day", token=lead)
        day = as_json(data)
        check(status == 200 and len(day["photos"]) == 6 and day["total"] == 6, "a lead's token lists today's six photos (%s %s)"
              % (status, day and [p["user"] for p in day["photos"]]))
        check([p["number"] for p in day["photos"]] == list(range(1, 7)), "numbered 1 to 6 in the order taken")
        check(day["people"] == ["Ana", "Carol", "Lee"] and day["projects"] == ["Bridge", "Depot"], "the day's people and projects (%s %s)"
              % (day["people"], day["projects"]))
        check(all(p["file"] == "ok" and "/" not in p["name"] for p in day["photos"]), "each photo ok, named without its folder")
        check(day["plan"] and day["plan"].startswith("/api/team/plan.svg?"), "a plan for the located photos (%s)" % day["plan"])
        status, _, data = fetch("127.0.0.1", port, "/api/team/day")
        check(status == 200 and len(as_json(data)["photos"]) == 6, "this machine itself gets in without a token (%s)" % status)
        status, _, data = fetch(host, port, "/team", token=lead)
        check(status == 200 and b"lead.js" in data, "the lead's page is served to a lead")

        # Filters.
        def listed(query, token=lead):
            status, _, data = fetch(host, port, "/api/team/day?" + query, token=token)
            return status, as_json(data)
        status, answer = listed("person=Ana")
        check(status == 200 and [p["user"] for p in answer["photos"]] == ["Ana"] * 4, "person=Ana: her four (%s)" % status)
        status, answer = listed("project=Depot")
        check(status == 200 and sorted(p["user"] for p in answer["photos"]) == ["Carol", "Lee"], "project=Depot: Lee's and Carol's")
        status, answer = listed("person=ana")
        check(status == 200 and answer["photos"] == [], "a person is matched exactly (ana is not Ana)")
        yesterday_day = time.strftime("%Y-%m-%d", time.gmtime(yesterday))
        status, answer = listed("day=" + yesterday_day)
        check(status == 200 and [p["user"] for p in answer["photos"]] == ["Carol"], "day=%s: yesterday's apply'd photo (%s)"
              % (yesterday_day, answer and answer["photos"]))
        for query in ["day=../../etc/passwd", "day=2026-02-30", "day=99999-01-01", "day=1e308", "day=-0001-01-01",
                      "person=" + "x" * 600, "site=" + "%E2%80%AE" * 600]:
            status, answer = listed(query)
            check(status == 400 and set(answer) == {"error"}, "a bad filter is refused with 400 (%s… → %s)" % (query[:24], status))
        status, answer = listed("site=%00")
        check(status == 200 and len(answer["photos"]) in (0, 6), "a NUL in a filter is harmless (%s)" % status)
        for query in ["person=../../etc/passwd", "site=" + "%E2%80%AE" * 300, "project=%3Cscript%3E", "day=2026-12-03&person=" + "y" * 500]:
            status, answer = listed(query)
            check(status == 200 and answer["photos"] == [], "a strange filter finds nothing (%s… → %s)" % (query[:24], status))
        status, _, _ = fetch(host, port, "/api/team/day?person=" + "z" * 200000, token=lead)
        check(status in (400, 413, 414, 431), "a huge query is refused (%s)" % status)
        for bad in ["../../etc/passwd", "1-0000000000000000", "99999999999999999999999-0123456789abcdef", "%00", "-1-aaaaaaaaaaaaaaaa"]:
            status, _, data = fetch(host, port, "/api/team/photo?id=" + urllib.parse.quote(bad), token=lead)
            check(status == 404 and set(as_json(data) or {}) == {"error"}, "a photo id that names none gets 404 (%s → %s)" % (bad, status))

        # Photos opened: stamp values and the verdict.
        first = day["photos"][0]
        status, headers, data = fetch(host, port, first["thumbnail"], token=lead)
        check(status == 200 and headers["Content-Type"] == "image/jpeg" and data[:2] == b"\xff\xd8", "a thumbnail is a JPEG")
        size = jpeg_size(data)
        check(max(size) <= 320 and max(size) >= 200, "a thumbnail is small (%s)" % (size,))
        status, _, data = fetch(host, port, "/api/team/photo?id=" + first["id"], token=lead)
        opened = as_json(data)
        check(status == 200 and opened["verification"]["outcome"] == "valid" and opened["verification"]["unchanged"],
              "an uploaded photo opened: signed by the server, unchanged (%s)" % (opened and opened["verification"]))
        check(any(row["value"] == "Ana" for row in opened["rows"]), "its stamp values are the report's rows")
        status, _, image = fetch(host, port, opened["image"], token=lead)
        check(status == 200 and len(image) > 20000, "the photo itself, full size (%d bytes)" % len(image))

        # A file deleted, one replaced after logging.
        files = sorted(os.path.join(server.photos, n) for n in server.photo_files())
        ids = {p["name"]: p["id"] for p in day["photos"]}
        gone, replaced = files[0], files[1]
        os.rename(gone, gone + ".moved")
        with open(replaced, "r+b") as f:
            f.seek(-3000, 2)
            f.write(b"\0" * 100)  # the same size, another picture
        status, _, data = fetch(host, port, "/api/team/thumbnail?id=" + ids[os.path.basename(gone)], token=lead)
        check(status == 404 and "no longer" in as_json(data)["error"], "a deleted photo's thumbnail: 404 saying so (%s)" % status)
        status, _, data = fetch(host, port, "/api/team/photo?id=" + ids[os.path.basename(gone)], token=lead)
        check(status == 200 and as_json(data)["file"] == "missing" and as_json(data)["image"] is None, "a deleted photo opened: missing")
        status, _, data = fetch(host, port, "/api/team/thumbnail?id=" + ids[os.path.basename(replaced)], token=lead)
        check(status == 409 and "changed" in as_json(data)["error"], "a replaced photo's thumbnail: 409 changed (%s)" % status)
        status, _, data = fetch(host, port, "/api/team/image?id=" + ids[os.path.basename(replaced)], token=lead)
        check(status == 409, "a replaced photo is never served as the logged one (%s)" % status)
        status, answer = listed("")
        states = {p["name"]: p["file"] for p in answer["photos"]}
        check(states[os.path.basename(gone)] == "missing" and states[os.path.basename(replaced)] == "changed",
              "the day says which files are missing or changed (%s)" % states)
        os.rename(gone + ".moved", gone)

        # Two leads at once: both see the day, both add a person, both stay.
        results = []

        def add(token, name):
            results.append(fetch(host, port, "/api/team/people", token=token, method="POST", body={"name": name, "project": "Bridge"}))
        threads = [threading.Thread(target=add, args=(tokens[who], "New %s %d" % (who, i))) for i in range(4) for who in ("Lee", "Bo")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        check(all(r[0] == 200 for r in results), "eight people added by two leads at once (%s)" % [r[0] for r in results])
        status, _, data = fetch(host, port, "/api/team/people", token=lead)
        people = as_json(data)["people"]
        check(len(people) == 11 and all(p["link"].startswith("http://%s:%d/" % (host, port)) for p in people),
              "all of them in the team, with links to this server (%d)" % len(people))
        check(next(p for p in people if p["name"] == "Lee")["link"].endswith("/team?token=" + lead), "a lead's link opens /team")
        newcomer = next(p for p in people if p["name"] == "New Bo 0")
        status, headers, data = fetch(host, port, newcomer["qr"], token=lead)
        check(status == 200 and headers["Content-Type"] == "image/svg+xml" and ElementTree.fromstring(data).tag.endswith("svg"),
              "the link's QR code is an SVG")
        status, _, data = fetch(host, port, "/api/team/people", token=lead, method="POST", body={"name": "Ana"})
        check(status == 409, "a name the team has is refused (%s)" % status)
        status, _, data = fetch(host, port, "/api/team/people", token=lead, method="POST", body={"name": "bell\u0007"})
        check(status == 400, "a name with a control character is refused (%s %s)" % (status, data[:80]))
        status, _, data = fetch(host, port, "/api/team/people/remove", token=lead, method="POST", body={"name": "Lee"})
        check(status == 409, "a lead cannot remove themselves (%s)" % status)
        status, _, data = fetch(host, port, "/api/team/people/remove", token=lead, method="POST", body={"name": "Bo"})
        check(status == 200, "a lead removes another lead (%s)" % status)
        status, _, data = fetch(host, port, "/api/team/day", token=tokens["Bo"])
        check(status == 401, "the removed lead is refused at once (%s)" % status)
        status, _, _ = fetch(host, port, "/api/team/day", token=lead)
        check(status == 200, "the other lead still gets in")

        # Files for a filter, while photos arrive.
        arriving = []

        def send_more():
            for index in range(6):
                arriving.append(request(port, form(picture(640, 480, seed=50 + index), review="0", project="Bridge"),
                                        token=member, source=host)[0])
        sender = threading.Thread(target=send_more)
        sender.start()
        status, headers, pdf = fetch(host, port, "/api/team/report.pdf?person=Ana", token=lead)
        while status == 503:  # another report is being made
            status, headers, pdf = fetch(host, port, "/api/team/report.pdf?person=Ana", token=lead)
        sender.join()
        check(status == 200 and headers["Content-Type"] == "application/pdf" and "attachment" in headers["Content-Disposition"],
              "the report of Ana's photos, made while hers arrive (%s)" % status)
        report = os.path.join(server.folder, "ana.pdf")
        with open(report, "wb") as f:
            f.write(pdf)
        info = subprocess.run(["pdfinfo", report], capture_output=True, text=True)
        text = subprocess.run(["pdftotext", "-layout", report, "-"], capture_output=True, text=True).stdout
        check(info.returncode == 0 and "Pages:" in info.stdout, "pdfinfo opens it")
        counted = [int(line.split(" of ")[1].split()[0]) for line in text.splitlines() if "Photo" in line and " of " in line
                   and line.split(" of ")[1].split()[0].isdigit()]
        check(headers.get("X-Stampcam-Left-Out") == "1", "the photo replaced earlier is left out (%s)" % headers.get("X-Stampcam-Left-Out"))
        check(counted and 3 <= counted[0] <= 9 and "Ana" in text and "Carol" not in text,
              "it holds Ana's photos only, between those before and after the arrivals (%s)" % counted[:1])
        check(all(code == 200 for code in arriving), "the photos sent meanwhile were saved (%s)" % arriving)
        status, headers, data = fetch(host, port, "/api/team/photos.csv?project=Depot", token=lead)
        rows = list(csv.DictReader(io.StringIO(data.decode("utf-8"))))
        check(status == 200 and sorted(r["user"] for r in rows) == ["Carol", "Lee"], "the CSV of project Depot parses: two rows (%s)"
              % [r.get("user") for r in rows])
        status, headers, data = fetch(host, port, "/api/team/photos.kmz?person=Ana", token=lead)
        archive = zipfile.ZipFile(io.BytesIO(data))
        kml = ElementTree.fromstring(archive.read("doc.kml"))
        marks = kml.findall(".//{http://www.opengis.net/kml/2.2}Placemark")
        check(status == 200 and len(marks) == 4 and sum(n.endswith(".jpg") for n in archive.namelist()) == 3,
              "the KMZ of Ana's photos: four placemarks, pictures but of the replaced one (%s, %d, %s)" % (status, len(marks), archive.namelist()))
        status, headers, svg = fetch(host, port, day["plan"], token=lead)
        check(status == 200 and ElementTree.fromstring(svg).tag.endswith("svg"), "the plan is an SVG (%s)" % status)
        status, _, data = fetch(host, port, "/api/team/report.pdf?person=Nobody", token=lead)
        check(status == 404 and set(as_json(data)) == {"error"}, "a report of nothing: 404 saying so (%s)" % status)
        server.stop()
    finally:
        server.stop(check=False)
    many(binary)


def many(binary):
    """A day of 500 photos (apply'd into the served catalog): all listed, numbered, with their thumbnails."""
    server = Server(binary, keep_original=False)
    try:
        sources = make_photos(os.path.join(server.folder, "camera"), 500, size=(64, 48))
        apply(binary, server.env, sources, os.path.join(server.folder, "applied"), "--user", "Dana")
        started = time.monotonic()
        status, _, data = fetch("127.0.0.1", server.port, "/api/team/day")
        took = time.monotonic() - started
        day = as_json(data)
        check(status == 200 and len(day["photos"]) == 500 and day["photos"][-1]["number"] == 500,
              "a day of 500 photos is listed whole (%s, %.2f s)" % (status, took))
        status, _, data = fetch("127.0.0.1", server.port, day["photos"][499]["thumbnail"])
        check(status == 200 and data[:2] == b"\xff\xd8", "the 500th has its thumbnail")
        server.stop()
    finally:
        server.stop(check=False)


if __name__ == "__main__":
    main(sys.argv[1])
