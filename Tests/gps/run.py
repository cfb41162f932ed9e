#!/usr/bin/env python3
"""The GPS tests with a real gpsd: a receiver we drive (receiver.py) feeds gpsd NMEA, and `stampcam
shoot --yes` with the test pattern takes photos meanwhile. What a photo's stamp says is read back
from its file name (`--name '{site|lat}-…'`: the same fields as the stamp) and its EXIF GPS
(exiftool). The receiver moves on when the photo it was waiting for is printed, and a series is
ended with Ctrl-C (SIGINT: the photo in hand is saved, exit 130) once it has shown what it should:
nothing waits for a guessed time. Usage: run.py STAMPCAM. Prints one line per check and
'N passed, N failed'."""
import datetime
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from stamptest import Checks, Lines, exiftool, free_port, isolated_env, wait_until  # noqa: E402
from receiver import Receiver  # noqa: E402
from nmea import BETWEEN, GATE, QUAY  # noqa: E402

BINARY = os.path.abspath(sys.argv[1])
os.makedirs(os.path.join(HERE, "..", "..", ".build"), exist_ok=True)
WORK = tempfile.mkdtemp(prefix="stampcam-gps-", dir=os.path.join(HERE, "..", "..", ".build"))
SITES = os.path.join(HERE, "sites.geojson")
ENV = isolated_env(WORK, PATH=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
GPS_TAGS = ("-GPSLatitude", "-GPSLongitude", "-GPSAltitude", "-GPSImgDirection")
check = Checks()


class Shoot:
    """`stampcam shoot --yes` with the test pattern, its saved paths read as they are printed."""

    def __init__(self, folder, *arguments, port=None):
        command = [BINARY, "shoot", "--yes", "--device", "test", "--skip", "0", "-o", folder] + list(arguments)
        if port is not None:
            command += ["--gpsd", "127.0.0.1:%d" % port]
        self.errors = open(folder + ".stderr", "w+")
        # Ctrl-C as a terminal sends it, whatever this script inherited (a job started with `&`
        # from a script has SIGINT ignored, and stampcam keeps a signal ignored at its start).
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self.errors, text=True, env=ENV,
                                        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.lines = Lines(self.process.stdout)
        self.names = []

    def next_name(self):
        """The file name of the next photo saved (None when the series has ended)."""
        line = self.lines.next()
        if line is None:
            return None
        self.names.append(os.path.basename(line))
        return self.names[-1]

    def interrupt(self):
        """Ctrl-C: the photo in hand is saved, then the series ends."""
        self.process.send_signal(signal.SIGINT)

    def finish(self):
        """(exit status, every photo's file name, stderr) once it has ended."""
        self.names += [os.path.basename(line) for line in self.lines.rest() if line.strip()]
        code = self.process.wait()
        self.errors.seek(0)
        return code, self.names, self.errors.read()


def shoot(folder, *arguments, port=None):
    return Shoot(folder, *arguments, port=port).finish()


def until(series, wanted, limit=100):
    """Reads the series' photos until one whose name `wanted` accepts; False when the series ended
    first or `limit` photos came without one (a failsafe: the next photo normally does)."""
    for _ in range(limit):
        name = series.next_name()
        if name is None:
            return False
        if wanted(name):
            return True
    return False


def kinds(names, classify):
    """The run-length pattern of the photos' kinds: ["Q", "Q", "L", "G"] → "QLG"."""
    return re.sub(r"(.)\1+", r"\1", "".join(classify(name) for name in names))


def fix_then_none(folder, receiver, positioned, lose):
    """A series that starts with a fix (names starting with `positioned`) until `lose()` takes the fix
    away, then Ctrl-C: whether it went position, then "no GPS fix" and never back, with exit 130; and
    the series' (code, names, errors)."""
    series = Shoot(folder, "--count", "1000", "--interval", "0.5", "--gps-max-age", "2",
                   "--name", "{location|lat}-{seq:04}", port=receiver.port)
    ended = until(series, lambda name: name.startswith(positioned))
    lose()
    ended = ended and until(series, lambda name: name.startswith("no GPS fix-"))
    series.interrupt()
    code, names, errors = series.finish()
    fix = lambda name: "P" if name.startswith(positioned) else "N" if name.startswith("no GPS fix-") else "?"
    return ended and code == 130 and kinds(names, fix) == "PN", code, names, errors


def main():
    # A walk from the quay (a polygon with a hole, project Bridge 7) to the gate (40 m around a
    # point), by way of a place on neither: the receiver moves on once a photo shows where it is.
    with Receiver(ENV) as receiver:
        receiver.at(QUAY)
        receiver.wait_for_fix(QUAY)
        folder = os.path.join(WORK, "walk")
        series = Shoot(folder, "--count", "1000", "--interval", "0.5", "-t", "geo", "--sites", SITES,
                       "--gps-max-age", "3", "--name", "{site|lat}-{project}-{seq:04}", port=receiver.port)
        walked = until(series, lambda name: name.startswith("Quay-"))
        receiver.at(BETWEEN)
        walked = walked and until(series, lambda name: name.startswith("48.85"))
        receiver.at(GATE)
        walked = walked and until(series, lambda name: name.startswith("Gate-"))
        series.interrupt()
        code, names, errors = series.finish()
    check("walk: the series follows the receiver to the gate and ends on Ctrl-C (exit 130)",
          walked and code == 130, "exit %d, %s, %s" % (code, names, errors))
    check("walk: the first photo is on the quay, with its project", names[:1] and names[0].startswith("Quay-Bridge 7-"), names)
    site = lambda name: "Q" if name.startswith("Quay-") else "G" if name.startswith("Gate-") else "L" if name.startswith("48.85") else "?"
    check("walk: quay, then the latitude between the sites, then the gate; never back", kinds(names, site) == "QLG", names)
    read = exiftool([folder], *GPS_TAGS)
    located = [read.get(name, {}) for name in names]
    check("walk: every photo has GPS latitude and longitude in EXIF",
          located and all("GPSLatitude" in item and "GPSLongitude" in item for item in located), located)
    check("walk: and the altitude (the fix is 3D)", located and all("GPSAltitude" in item for item in located), located)
    check("walk: the heading (course 45°) is in EXIF GPSImgDirection",
          located and all(abs(item.get("GPSImgDirection", -1) - 45) < 0.01 for item in located), located)
    quay = [item for name, item in zip(names, located) if name.startswith("Quay")]
    check("walk: the quay photos' EXIF positions lie on the quay",
          quay and all(48.8578 <= item["GPSLatitude"] <= 48.8584 and 2.2938 <= item["GPSLongitude"] <= 2.2946 for item in quay), quay)
    check("walk: the viewfinder note says there is a fix", "note: GPS fix, ±17 m" in errors, errors)

    # The receiver loses its fix after the first photo: once the fix is older than max-age, "no GPS fix".
    with Receiver(ENV) as receiver:
        receiver.at(QUAY)
        receiver.wait_for_fix(QUAY)
        folder = os.path.join(WORK, "lost")
        lost, code, names, errors = fix_then_none(folder, receiver, "48.85800-", receiver.no_fix)
    check("lost fix: the first photo has the position, later ones say no GPS fix (and never the position again)",
          lost, (code, names, errors))
    check("lost fix: the warning says how old the fix is", "no GPS fix: the last one is" in errors and "(limit 2 s)" in errors, errors)
    read = exiftool([folder], *GPS_TAGS)
    check("lost fix: no position in the EXIF of a photo without a fix",
          names and "GPSLatitude" not in read.get(names[-1], {}) and "GPSLatitude" in read.get(names[0], {}), read)

    # HDOP 8: gpsd estimates about 150 m, worse than the 50 m limit: not used; with a 200 m limit it is.
    with Receiver(ENV) as receiver:
        receiver.at(QUAY, hdop=8.0)
        receiver.wait_for_fix(QUAY)
        code, names, errors = shoot(os.path.join(WORK, "poor"), "--name", "{location|lat}-{seq:04}", port=receiver.port)
        check("poor HDOP: not used", code == 0 and names[:1] and names[0].startswith("no GPS fix-"), (code, names, errors))
        check("poor HDOP: the warning names the accuracy and the limit", "only accurate to 152 m (limit 50 m)" in errors, errors)
        code, names, errors = shoot(os.path.join(WORK, "poor-200"), "--gps-min-accuracy", "200",
                                    "--name", "{location|lat}-{seq:04}", port=receiver.port)
        check("poor HDOP: used with --gps-min-accuracy 200", code == 0 and names[:1] and names[0].startswith("48.85800-"),
              (code, names, errors))

    # The receiver's clock two years behind this machine's: a warning, and the stamp keeps the
    # clock's time ({gps_time} is the receiver's).
    with Receiver(ENV, clock_offset=datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone.utc)
                  - datetime.datetime.now(datetime.timezone.utc)) as receiver:
        receiver.at(QUAY)
        receiver.wait_for_fix(QUAY)
        code, names, errors = shoot(os.path.join(WORK, "old-clock"), "--count", "2", "--interval", "0.5",
                                    "--name", "{time_source}-{gps_time:%Y}-{seq:04}", port=receiver.port)
    check("clock: GPS time and the clock differing is a warning", "warning: the clock is" in errors and "ahead of GPS time" in errors, errors)
    check("clock: the stamp uses the clock and says so; {gps_time} is the receiver's",
          code == 0 and names[-1:] and names[-1].startswith("camera clock-2024-"), (code, names, errors))
    # The record keeps both: GPS time (2024) and how far the clock was from it (about -2 years).
    read = exiftool([os.path.join(WORK, "old-clock")], "-XMP-stampcam:GPSTime", "-XMP-stampcam:ClockDifference")
    kept = [read.get(name, {}) for name in names]
    check("clock: the photo's XMP records GPS time and the clock's difference from it",
          kept and all(str(item.get("GPSTime", "")).startswith(("2024-05-01", "2024:05:01"))  # exiftool writes dates with colons
                       and -1e9 < float(item.get("ClockDifference", 0)) < -3e7 for item in kept), kept)

    # A line sending garbage: gpsd takes no fix from it; the photo says so, nothing crashes.
    with Receiver(ENV) as receiver:
        receiver.garbage()
        wait_until(lambda: receiver.sent() >= 3, "the receiver to send garbage")
        code, names, errors = shoot(os.path.join(WORK, "garbage"), "--name", "{location|lat}-{seq:04}", port=receiver.port)
    check("garbage: the photo is taken and says no GPS fix", code == 0 and names == ["no GPS fix-0001.jpg"], (code, names, errors))

    # gpsd vanishes in the middle of a series: later photos, past max-age, have no position; no hang.
    receiver = Receiver(ENV)
    receiver.at(QUAY)
    receiver.wait_for_fix(QUAY)
    vanished, code, names, errors = fix_then_none(os.path.join(WORK, "vanished"), receiver, "48.85", receiver.stop)
    check("vanished: the photos before have the position, the ones after say no GPS fix; Ctrl-C still ends it",
          vanished, (code, names, errors))

    # No gpsd at all: auto goes on quietly, require is an error.
    port = free_port()
    code, names, errors = shoot(os.path.join(WORK, "absent"), "--name", "x{location|lat}-{seq:04}", port=port)
    check("no gpsd: --gps auto takes the photo without a position, quietly",
          code == 0 and names == ["x-0001.jpg"] and "GPS" not in errors and "gpsd" not in errors, (code, names, errors))
    code, names, errors = shoot(os.path.join(WORK, "absent-require"), "--gps", "require", port=port)
    check("no gpsd: --gps require is an error (exit 69) naming gpsd's address",
          code == 69 and names == [] and "gpsd does not answer at 127.0.0.1:%d" % port in errors, (code, errors))

    status = check.summary()
    if status == 0:
        shutil.rmtree(WORK, ignore_errors=True)  # kept for a look when something failed
    else:
        print("photos and logs kept in " + WORK)
    return status


if __name__ == "__main__":
    sys.exit(main())
