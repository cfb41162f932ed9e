#!/usr/bin/env python3
"""The GPS tests with a real gpsd: gpsfake (Debian gpsd-clients) starts a gpsd of its own on a
free port and replays an NMEA log we write (nmea.py) as if a receiver sent it; `stampcam shoot
--yes` with the test pattern takes photos meanwhile. What a photo's stamp says is read back from
its file name (`--name '{site|lat}-…'`: the same fields as the stamp) and its EXIF GPS (exiftool).
Usage: run.py STAMPCAM. Prints one line per check and 'N passed, N failed'."""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.path.abspath(sys.argv[1])
WORK = tempfile.mkdtemp(prefix="stampcam-gps-", dir=os.path.join(HERE, "..", "..", ".build"))
LOGS = os.path.join(WORK, "logs")
SITES = os.path.join(HERE, "sites.geojson")
ENV = dict(os.environ, PATH=os.environ.get("PATH", "") + ":/usr/sbin:/sbin", HOME=WORK, XDG_CACHE_HOME=WORK + "/cache",
           XDG_CONFIG_HOME=WORK + "/config", XDG_PICTURES_DIR=WORK + "/pictures")
results = []


def check(name, condition, detail=""):
    results.append(bool(condition))
    print(("ok    " if condition else "FAIL  ") + name + ("" if condition else "  -- " + str(detail)), flush=True)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Fake:
    """gpsfake replaying `log` once, a sentence every `cycle` seconds (five sentences an epoch:
    an epoch every 0.3 s, GPS time running about three times as fast as the clock), on a port of its own."""

    def __init__(self, log, cycle=0.06):
        self.port = free_port()
        self.process = subprocess.Popen(["gpsfake", "-1", "-q", "-c", str(cycle), "-P", str(self.port),
                                         os.path.join(LOGS, log)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
        # gpsd listens once started; it opens the fake receiver when a client watches.
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("gpsfake did not start a gpsd on port %d" % self.port)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def start_shoot(folder, *arguments, port=None):
    command = [BINARY, "shoot", "--yes", "--device", "test", "--skip", "0", "-o", folder] + list(arguments)
    if port is not None:
        command += ["--gpsd", "127.0.0.1:%d" % port]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)


def finish(process):
    out, err = process.communicate(timeout=180)
    return process.returncode, [os.path.basename(line) for line in out.splitlines() if line.strip()], err


def shoot(folder, *arguments, port=None):
    return finish(start_shoot(folder, *arguments, port=port))


def exif(folder):
    """exiftool's reading of every photo in `folder`, by file name."""
    done = subprocess.run(["exiftool", "-j", "-n", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", "-GPSImgDirection",
                           "-ext", "jpg", folder], capture_output=True, text=True)
    return {os.path.basename(item["SourceFile"]): item for item in json.loads(done.stdout or "[]")}


def main():
    subprocess.run([sys.executable, os.path.join(HERE, "nmea.py"), LOGS], check=True)

    # A walk from the quay (a polygon with a hole, project Bridge 7) to the gate (40 m around a point).
    with Fake("walk.nmea") as fake:
        folder = os.path.join(WORK, "walk")
        code, names, errors = shoot(folder, "--count", "8", "--interval", "2.2", "-t", "geo", "--sites", SITES,
                                    "--gps-max-age", "3", "--name", "{site|lat}-{project}-{seq:04}", port=fake.port)
    check("walk: 8 photos saved", code == 0 and len(names) == 8, "exit %d, %s, %s" % (code, names, errors))
    sites = [name.split("-")[0] for name in names]
    check("walk: the first photos are on the quay, with its project", names[:1] and names[0].startswith("Quay-Bridge 7-"), names)
    check("walk: later photos are at the gate", "Gate" in sites, names)
    check("walk: never back on the quay after the gate", "Gate" in sites and "Quay" not in sites[sites.index("Gate"):], names)
    check("walk: photos between the sites show the latitude", any(s.startswith("48.85") for s in sites), names)
    read = exif(folder)
    located = [read.get(name, {}) for name in names]
    check("walk: every photo has GPS latitude and longitude in EXIF",
          located and all("GPSLatitude" in item and "GPSLongitude" in item for item in located), located)
    # The first report of a session may be a 2D fix (no altitude); the receiver's 3D fixes follow.
    check("walk: and the altitude once the fix is 3D", located and all("GPSAltitude" in item for item in located[1:]), located)
    check("walk: the heading (course 45°) is in EXIF GPSImgDirection",
          located and all(abs(item.get("GPSImgDirection", -1) - 45) < 0.01 for item in located), located)
    quay = [item for name, item in zip(names, located) if name.startswith("Quay")]
    check("walk: the quay photos' EXIF positions lie on the quay",
          quay and all(48.8578 <= item["GPSLatitude"] <= 48.8584 and 2.2938 <= item["GPSLongitude"] <= 2.2946 for item in quay), quay)
    # (the satellites follow when gpsd's SKY report with the used ones came before the photo)
    check("walk: the viewfinder note says there is a fix", "note: GPS fix, ±17 m" in errors, errors)

    # The receiver loses its fix after about 3 s: once the fix is older than max-age, "no GPS fix".
    with Fake("lost.nmea") as fake:
        folder = os.path.join(WORK, "lost")
        code, names, errors = shoot(folder, "--count", "2", "--interval", "6", "--gps-max-age", "2",
                                    "--name", "{location|lat}-{seq:04}", port=fake.port)
    check("lost fix: the first photo has the position", names[:1] and names[0].startswith("48.85800-"), (code, names, errors))
    check("lost fix: the photo after max-age says no GPS fix", len(names) == 2 and names[1].startswith("no GPS fix-"), names)
    check("lost fix: the warning says how old the fix is", "no GPS fix: the last one is" in errors and "(limit 2 s)" in errors, errors)
    read = exif(folder)
    check("lost fix: no position in the EXIF of the photo without a fix",
          len(names) == 2 and "GPSLatitude" not in read.get(names[1], {}) and "GPSLatitude" in read.get(names[0], {}), read)

    # HDOP 8: gpsd estimates about 150 m, worse than the 50 m limit: not used; with a 200 m limit it is.
    with Fake("poor.nmea") as fake:
        folder = os.path.join(WORK, "poor")
        code, names, errors = shoot(folder, "--name", "{location|lat}-{seq:04}", port=fake.port)
    check("poor HDOP: not used", code == 0 and names[:1] and names[0].startswith("no GPS fix-"), (code, names, errors))
    check("poor HDOP: the warning names the accuracy and the limit", "only accurate to 152 m (limit 50 m)" in errors, errors)
    with Fake("poor.nmea") as fake:
        code, names, errors = shoot(os.path.join(WORK, "poor-200"), "--gps-min-accuracy", "200",
                                    "--name", "{location|lat}-{seq:04}", port=fake.port)
    check("poor HDOP: used with --gps-min-accuracy 200", code == 0 and names[:1] and names[0].startswith("48.85800-"), (code, names, errors))

    # GPS time two years behind the clock (a replayed log is compressed in time, so only a large
    # difference is certain): a warning, and the stamp keeps the clock's time.
    with Fake("old-clock.nmea") as fake:
        code, names, errors = shoot(os.path.join(WORK, "old-clock"), "--count", "2", "--interval", "1",
                                    "--name", "{time_source}-{gps_time:%Y}-{seq:04}", port=fake.port)
    check("clock: GPS time and the clock differing is a warning", "warning: the clock is" in errors and "ahead of GPS time" in errors, errors)
    check("clock: the stamp uses the clock and says so; {gps_time} is the receiver's", names[-1:] and names[-1].startswith("camera clock-2024-"), names)

    # A line sending garbage: gpsd takes no fix from it; the photo says so, nothing crashes.
    with Fake("garbage.nmea") as fake:
        code, names, errors = shoot(os.path.join(WORK, "garbage"), "--name", "{location|lat}-{seq:04}", port=fake.port)
    check("garbage: the photo is taken and says no GPS fix", code == 0 and names == ["no GPS fix-0001.jpg"], (code, names, errors))

    # gpsd vanishes in the middle of a series: the next photo, past max-age, has no position; no hang.
    fake = Fake("walk.nmea")
    process = start_shoot(os.path.join(WORK, "vanished"), "--count", "2", "--interval", "5", "--gps-max-age", "2",
                          "--name", "{location|lat}-{seq:04}", port=fake.port)
    time.sleep(2.5)
    fake.__exit__()
    code, names, errors = finish(process)
    check("vanished: the photo before has the position, the one after says no GPS fix",
          code == 0 and len(names) == 2 and names[0].startswith("48.85") and names[1].startswith("no GPS fix-"), (code, names, errors))

    # No gpsd at all: auto goes on quietly, require is an error.
    port = free_port()
    code, names, errors = shoot(os.path.join(WORK, "absent"), "--name", "x{location|lat}-{seq:04}", port=port)
    check("no gpsd: --gps auto takes the photo without a position, quietly",
          code == 0 and names == ["x-0001.jpg"] and "GPS" not in errors and "gpsd" not in errors, (code, names, errors))
    code, names, errors = shoot(os.path.join(WORK, "absent-require"), "--gps", "require", port=port)
    check("no gpsd: --gps require is an error (exit 69) naming gpsd's address",
          code == 69 and names == [] and "gpsd does not answer at 127.0.0.1:%d" % port in errors, (code, errors))

    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    if passed == len(results):
        shutil.rmtree(WORK, ignore_errors=True)  # kept for a look when something failed
    else:
        print("photos and logs kept in " + WORK)
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
