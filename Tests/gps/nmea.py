"""NMEA 0183 as a receiver sends it, for the GPS tests' receiver (receiver.py): GGA (position, fix
quality, satellites, HDOP, altitude), GSA (fix type, satellites used, DOPs), RMC (status, speed,
course, date) and GSV for one epoch, with checksums; and what a broken serial line sends."""
import functools
import random


def sentence(body):
    checksum = functools.reduce(lambda value, char: value ^ ord(char), body, 0)
    return "$%s*%02X\r\n" % (body, checksum)


def degrees_minutes(value, latitude):
    whole = int(abs(value))
    minutes = (abs(value) - whole) * 60
    text = ("%02d%07.4f" if latitude else "%03d%07.4f") % (whole, minutes)
    return text, ("N" if value >= 0 else "S") if latitude else ("E" if value >= 0 else "W")


def epoch(when, lat, lon, fix=True, hdop=0.9, alt=35.0, speed_knots=2.7, course=45.0):
    """One epoch of a receiver's output, at `when` (UTC)."""
    hms = when.strftime("%H%M%S.") + "%02d" % (when.microsecond // 10000)
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


# The two sites of sites.geojson: a quay (a polygon with a hole, project Bridge 7) and a gate (a
# point, 40 m around it); and a place between them that is on neither.
QUAY = (48.85800, 2.29400)
BETWEEN = (48.85900, 2.29550)
GATE = (48.86000, 2.29700)

_garbage = random.Random(7)


def garbage(when):
    """What a broken serial line sends: bytes that are not text, sentences with wrong checksums or
    cut short, a line of 5000 characters, fields of the wrong kind; nothing gpsd can take a fix from."""
    body = "GPGGA,%s,4851.4800,N,00217.6400,E,1,08,0.9,35.0,M,47.0,M,," % when.strftime("%H%M%S.00")
    return "".join([
        "".join(chr(_garbage.randrange(0x21, 0x7F)) for _ in range(60)) + "\r\n",
        "$%s*00\r\n" % body,  # a wrong checksum
        "$GPRMC,12,A,north,N,east,E,fast,,,*\r\n",
        "$GPGGA," + "9" * 5000 + "\r\n",
    ])
