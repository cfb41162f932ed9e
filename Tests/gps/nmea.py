#!/usr/bin/env python3
"""Writes the NMEA 0183 logs the GPS tests replay through gpsfake: GGA (position, fix quality,
satellites, HDOP, altitude), GSA (fix type, satellites used, DOPs) and RMC (status, speed, course,
date) for each one-second epoch, with checksums. Usage: nmea.py FOLDER."""
import datetime
import functools
import math
import os
import sys


def sentence(body):
    checksum = functools.reduce(lambda value, char: value ^ ord(char), body, 0)
    return "$%s*%02X\r\n" % (body, checksum)


def degrees_minutes(value, latitude):
    whole = int(abs(value))
    minutes = (abs(value) - whole) * 60
    text = ("%02d%07.4f" if latitude else "%03d%07.4f") % (whole, minutes)
    return text, ("N" if value >= 0 else "S") if latitude else ("E" if value >= 0 else "W")


def epoch(when, lat, lon, fix=True, hdop=0.9, alt=35.0, speed_knots=2.7, course=45.0):
    """One second of a receiver's output."""
    hms = when.strftime("%H%M%S.00")
    dmy = when.strftime("%d%m%y")
    la, ns = degrees_minutes(lat, True)
    lo, ew = degrees_minutes(lon, False)
    used = ["05", "07", "09", "13", "17", "20", "24", "28"]
    if not fix:
        return "".join([
            sentence("GPGGA,%s,,,,,0,00,99.9,,M,,M,," % hms),
            sentence("GPGSA,A,1,,,,,,,,,,,,,99.9,99.9,99.9"),
            sentence("GPRMC,%s,V,,,,,,,%s,,,N" % (hms, dmy)),
        ])
    return "".join([
        sentence("GPGGA,%s,%s,%s,%s,%s,1,%02d,%.1f,%.1f,M,47.0,M,," % (hms, la, ns, lo, ew, len(used), hdop, alt)),
        # Twelve satellite fields, then PDOP, HDOP, VDOP.
        sentence("GPGSA,A,3,%s,%.1f,%.1f,%.1f" % (",".join(used + [""] * (12 - len(used))), hdop * 1.5, hdop, hdop * 1.2)),
        sentence("GPRMC,%s,A,%s,%s,%s,%s,%.1f,%.1f,%s,,,A" % (hms, la, ns, lo, ew, speed_knots, course, dmy)),
    ] + satellites_in_view(used))


def satellites_in_view(prns):
    """GSV: the satellites in view (number, elevation, azimuth, SNR), four a sentence."""
    groups = [prns[i:i + 4] for i in range(0, len(prns), 4)]
    out = []
    for index, group in enumerate(groups):
        fields = ",".join("%s,%02d,%03d,%02d" % (prn, 20 + 5 * n, (45 * n) % 360, 40) for n, prn in enumerate(group))
        out.append(sentence("GPGSV,%d,%d,%02d,%s" % (len(groups), index + 1, len(prns), fields)))
    return out


# The two sites of sites.geojson: a quay (a polygon with a hole) and a gate (a point, 40 m).
QUAY = (48.85800, 2.29400)
GATE = (48.86000, 2.29700)


def walk(start):
    """20 s on the quay, 20 s walking north-east, 20 s at the gate."""
    out = []
    for second in range(60):
        if second < 20:
            lat, lon = QUAY[0] + second * 0.000005, QUAY[1] + second * 0.000005
        elif second < 40:
            t = (second - 20) / 20
            lat, lon = QUAY[0] + t * (GATE[0] - QUAY[0]), QUAY[1] + t * (GATE[1] - QUAY[1])
        else:
            lat, lon = GATE[0] + (second - 40) * 0.000001, GATE[1]
        out.append(epoch(start + datetime.timedelta(seconds=second), lat, lon, alt=35.0 + second * 0.1, course=45.0))
    return "".join(out)


def lost(start):
    """10 s of fix on the quay, then 60 s of a receiver without one (in a tunnel)."""
    out = [epoch(start + datetime.timedelta(seconds=s), QUAY[0], QUAY[1]) for s in range(10)]
    out += [epoch(start + datetime.timedelta(seconds=s), 0, 0, fix=False) for s in range(10, 70)]
    return "".join(out)


def poor(start):
    """60 s of a fix on the quay with HDOP 8 (gpsd: about 150 m)."""
    return "".join(epoch(start + datetime.timedelta(seconds=s), QUAY[0], QUAY[1], hdop=8.0) for s in range(60))


def garbage(start):
    """What a broken serial line sends: bytes that are not text, sentences with wrong checksums or
    cut short, a line of 5000 characters, fields of the wrong kind; nothing gpsd can take a fix from."""
    import random
    chooser = random.Random(7)
    out = []
    for second in range(40):
        out.append("".join(chr(chooser.randrange(0x21, 0x7F)) for _ in range(60)) + "\r\n")
        body = "GPGGA,%s,4851.4800,N,00217.6400,E,1,08,0.9,35.0,M,47.0,M,," % (start + datetime.timedelta(seconds=second)).strftime("%H%M%S.00")
        out.append("$%s*00\r\n" % body)  # a wrong checksum
        out.append("$GPRMC,12,A,north,N,east,E,fast,,,*\r\n")
        out.append("$GPGGA," + "9" * 5000 + "\r\n")
    return "".join(out)


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    # Receiver time = now, so the clock check is quiet, except in the log from 2024.
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    logs = {
        "walk.nmea": walk(now),
        "lost.nmea": lost(now),
        "poor.nmea": poor(now),
        "old-clock.nmea": walk(datetime.datetime(2024, 5, 1, 12, 0, 0, tzinfo=datetime.timezone.utc)),
        "garbage.nmea": garbage(now),
    }
    for name, text in logs.items():
        with open(os.path.join(folder, name), "w", newline="") as handle:
            handle.write(text)


if __name__ == "__main__":
    main()
