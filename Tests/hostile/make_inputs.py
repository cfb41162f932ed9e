#!/usr/bin/env python3
"""Generates the hostile input set for Tests/hostile/run.sh (standard library only).

    make_inputs.py --stampcam BIN --inputs IN --work WORK

Every input is made here, at test time, from our own pictures: generated PPMs encoded with cjpeg
(libjpeg-turbo-progs) and stampcam's own test card. Into IN (created) go the files under test;
into WORK the base images, WORK/runs.list (id NUL name NUL, for run.sh) and WORK/manifest.json,
which says for each input what it attacks and what `stampcam apply` must do with it:

  expect "done"  the photo must be stamped: output present under the same name, a valid JPEG
  expect "fail"  exactly one stderr line naming it (saying what SAYS gives, for a few), no output,
                 the documented exit code: 65 bad data; 66 for what cannot be read as a file at
                 all (a FIFO, a device, a dangling or looping symlink)
  expect "none"  not a photo at all (a folder named f.jpg): no output, no stderr line

Which damaged copies count as good is decided by libjpeg-turbo's own djpeg (the ORACLE rule):
  - a copy djpeg decodes with no warning and no error is a valid JPEG: it must be stamped;
  - a copy djpeg decodes to exactly the pixels of the photo it was cut from is salvageable (only
    the EOI marker or padding is gone, nothing of the picture): it must be stamped;
  - anything else (a libjpeg error, or a warning with pixels lost or changed) must fail.
Bombs, over-limit sizes, >= 1000-scan files and non-regular files are labelled by hand (they must
fail), so the oracle never has to decode a 196 MP canvas.
"""

import argparse
import json
import os
import random
import struct
import subprocess
import sys

ORACLE = "oracle"

# What the one stderr line must say, where the README or the kernel fixes the facts (a FIFO is not
# "empty", a symlink loop is not "no such file").
SAYS = {
    "empty": r"(?i)empty",
    "not-jpeg": r"(?i)not a JPEG",
    "sof-precision-12": r"12-bit",
    "sof-over-limit": r"above the limit",
    "trunc-scan-50": r"(?i)truncated",
    "trunc-prog-mid-scan": r"(?i)truncated",
    "fifo": r"(?i)not a (regular )?file|pipe|fifo",
    "dev-zero": r"(?i)not a (regular )?file|device",
    "dangling": r"(?i)no such file",
    "symlink-loop": r"(?i)loop|too many levels",
    "soi-then-junk": r"corrupt JPEG: the start-of-image marker",
    "soi-only": r"truncated JPEG: the file ends after 2 bytes",
    "dnl-height": r"unsupported JPEG feature: .*DNL",
}


# ---------------------------------------------------------------------------------------------
# Pictures and encoders

def make_ppm(width, height, seed, detail=True):
    """A deterministic picture: colour gradients, rings and (with detail) some noise."""
    rng = random.Random(seed)
    noise = bytes(rng.randrange(0, 24) for _ in range(4096)) if detail else bytes(4096)
    rows = []
    cx, cy = width * 0.6, height * 0.4
    for y in range(height):
        row = bytearray(width * 3)
        for x in range(width):
            n = noise[(x * 31 + y * 17) & 4095]
            d = int(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5)
            ring = 60 if detail and (d // 12) % 2 else 0
            row[3 * x] = (x * 255 // max(width - 1, 1) + n) & 255
            row[3 * x + 1] = (y * 255 // max(height - 1, 1) + ring) & 255
            row[3 * x + 2] = ((x + y) * 128 // max(width + height, 1) + n + ring) & 255
        rows.append(bytes(row))
    return b"P6\n%d %d\n255\n" % (width, height) + b"".join(rows)


def flat_ppm(width, height, grey=128):
    return b"P6\n%d %d\n255\n" % (width, height) + bytes([grey]) * (width * height * 3)


def run(argv, stdin=None, timeout=120):
    return subprocess.run(argv, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout, check=False)


def cjpeg(ppm, *args):
    """The PPM encoded by cjpeg with these options."""
    r = run(["cjpeg", *args], stdin=ppm)
    if r.returncode != 0:
        sys.exit("make_inputs: cjpeg %s failed: %s" % (" ".join(args), r.stderr.decode(errors="replace")))
    return r.stdout


def djpeg(data):
    """(exit status, pixels) of libjpeg-turbo's djpeg: 0 clean, 2 warnings, 1 error."""
    try:
        r = run(["djpeg", "-ppm"], stdin=data, timeout=120)
    except subprocess.TimeoutExpired:
        return 1, None
    return r.returncode, r.stdout if r.returncode != 1 else None


# ---------------------------------------------------------------------------------------------
# JPEG structure

class Seg:
    """One marker segment: start (at 0xFF), hdr_end (after its length-counted payload), and end
    (for SOS, the end of the entropy-coded data that follows; else == hdr_end)."""

    def __init__(self, marker, start, hdr_end, end):
        self.marker, self.start, self.hdr_end, self.end = marker, start, hdr_end, end

    def __repr__(self):
        return "Seg(%02X, %d..%d..%d)" % (self.marker, self.start, self.hdr_end, self.end)


SOF_MARKERS = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def segments(data):
    assert data[:2] == b"\xff\xd8", "not a JPEG"
    segs, i = [], 2
    while i < len(data):
        assert data[i] == 0xFF, "marker expected at %d" % i
        while data[i + 1] == 0xFF:
            i += 1
        m = data[i + 1]
        if m == 0xD9:
            segs.append(Seg(m, i, i + 2, i + 2))
            break
        hdr_end = i + 2 + struct.unpack(">H", data[i + 2:i + 4])[0]
        end = hdr_end
        if m == 0xDA:
            while True:
                end = data.index(b"\xff", end)
                if data[end + 1] == 0 or 0xD0 <= data[end + 1] <= 0xD7:
                    end += 2
                    continue
                break
        segs.append(Seg(m, i, hdr_end, end))
        i = end
    return segs


def first(data, markers):
    return next(s for s in segments(data) if s.marker in markers)


def all_of(data, marker):
    return [s for s in segments(data) if s.marker == marker]


def patch(data, offset, new):
    return data[:offset] + bytes(new) + data[offset + len(new):]


def set_dims(data, width, height):
    sof = first(data, SOF_MARKERS)
    return patch(data, sof.start + 5, struct.pack(">HH", height, width))


def xor(data, offset, mask):
    return patch(data, offset, [data[offset] ^ mask])


def remove(data, segs):
    out, last = bytearray(), 0
    for s in sorted(segs, key=lambda s: s.start):
        out += data[last:s.start]
        last = s.end
    return bytes(out + data[last:])


def repeat_scan(data, scan_index, times):
    """The scan (SOS + its data) number scan_index, repeated `times` times in a row."""
    sos = all_of(data, 0xDA)[scan_index]
    return data[:sos.end] + data[sos.start:sos.end] * (times - 1) + data[sos.end:]


# ---------------------------------------------------------------------------------------------
# EXIF (TIFF, little-endian) built by hand

def ifd(entries, offset, next_ifd=0):
    """An IFD at `offset` in the TIFF stream: (tag, type, count, value bytes) entries; values over
    4 bytes go right after the IFD. Returns its bytes."""
    entries = sorted(entries)
    data_at = offset + 2 + 12 * len(entries) + 4
    head, tail = bytearray(struct.pack("<H", len(entries))), bytearray()
    for tag, typ, count, value in entries:
        if len(value) <= 4:
            head += struct.pack("<HHI", tag, typ, count) + value.ljust(4, b"\0")
        else:
            head += struct.pack("<HHII", tag, typ, count, data_at + len(tail))
            tail += value + (b"\0" if len(value) % 2 else b"")
    head += struct.pack("<I", next_ifd)
    return bytes(head + tail)


def ascii_tag(tag, text):
    v = text.encode() + b"\0"
    return (tag, 2, len(v), v)


def exif_app1(maker_note_len, exif_ifd_offset=None, maker=None):
    """An APP1 Exif segment: Make, Model, Orientation, DateTime, Artist; an Exif IFD with
    DateTimeOriginal, OffsetTimeOriginal and a MakerNote of the given length (or the given bytes)."""
    ifd0_entries = [ascii_tag(0x010F, "StampcamTest"), ascii_tag(0x0110, "Hostile Harness Cam"),
                    (0x0112, 3, 1, struct.pack("<H", 1)), ascii_tag(0x0132, "2021:06:15 10:20:30"),
                    ascii_tag(0x013B, "Hostile Harness")]
    pointer = lambda off: (0x8769, 4, 1, struct.pack("<I", off))
    ifd0_size = len(ifd(ifd0_entries + [pointer(0)], 8))
    exif_at = 8 + ifd0_size
    ifd0 = ifd(ifd0_entries + [pointer(exif_ifd_offset if exif_ifd_offset is not None else exif_at)], 8)
    if maker is None:
        maker = bytes((i * 7 + 3) & 255 for i in range(maker_note_len))
    exif_entries = [ascii_tag(0x9003, "2021:06:15 10:20:30"), ascii_tag(0x9011, "+08:00")]
    if maker:
        exif_entries.append((0x927C, 7, len(maker), maker))
    tiff = b"II*\0" + struct.pack("<I", 8) + ifd0 + ifd(exif_entries, exif_at)
    payload = b"Exif\0\0" + tiff
    assert len(payload) + 2 <= 0xFFFF, "APP1 too big: %d" % (len(payload) + 2)
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def nikon_type3_hostile():
    """A Nikon type 3 maker note (its own big-endian TIFF header; offsets from that header) whose
    offsets are hostile: a value past its declared end and one past the segment, an absurd count,
    a preview IFD that is the note's own IFD (a loop), and a preview image past the end of the file."""
    entries = [(0x0001, 7, 4, b"0210"), (0x0004, 2, 0x40000000, 16), (0x0011, 4, 1, 8),
               (0x0095, 2, 5, 0x7FFFFFF0), (0x00A7, 2, 8, 200), (0x0201, 4, 1, 0x7FFF0000), (0x0202, 4, 1, 4096)]
    table = struct.pack(">H", len(entries))
    for tag, typ, count, value in entries:
        field = value if isinstance(value, bytes) else struct.pack(">I", value)
        table += struct.pack(">HHI", tag, typ, count) + field
    table += struct.pack(">I", 0)
    return b"Nikon\0\x02\x10\0\0" + b"MM\0*" + struct.pack(">I", 8) + table + b"OFF \0\0"


def with_exif(jpeg, app1):
    """Replaces the APP0 (JFIF) segment with the given APP1."""
    app0 = first(jpeg, {0xE0})
    return jpeg[:app0.start] + app1 + jpeg[app0.end:]


# ---------------------------------------------------------------------------------------------
# The set

class Builder:
    def __init__(self, inputs):
        self.inputs, self.cases, self.oracle_log = inputs, [], []

    def add(self, cid, name, data, expect, attack, code=None, origin=None, warn=None, exif=False):
        """A regular file. expect is "done", "fail" or ORACLE; origin is the undamaged JPEG it was
        made from (for the salvage half of the oracle)."""
        if expect == ORACLE:
            status, pixels = djpeg(data)
            same = origin is not None and pixels is not None and pixels == djpeg(origin)[1]
            expect = "done" if status == 0 or same else "fail"
            why = {0: "djpeg clean", 2: "djpeg warns", 1: "djpeg error"}.get(status, "djpeg %d" % status)
            attack += " [oracle: %s%s]" % (why, ", pixels identical" if status == 2 and same else "")
        name = name if isinstance(name, bytes) else name.encode()
        with open(os.path.join(self.inputs, os.fsdecode(name)), "wb") as f:
            f.write(data)
        self.case(cid, name, "file", expect, attack, code, warn, exif)

    def case(self, cid, name, kind, expect, attack, code=None, warn=None, exif=False):
        assert expect in ("done", "fail", "none") and cid not in {c["id"] for c in self.cases}
        if code is None:
            code = {"done": 0, "fail": 65, "none": 0}[expect]
        self.cases.append({"id": cid, "name": name.hex(), "kind": kind, "expect": expect, "code": code,
                           "attack": attack, "warn": warn, "exif": exif, "say": SAYS.get(cid)})


def build(stampcam, inputs, work):
    os.makedirs(inputs)
    os.makedirs(work, exist_ok=True)
    b = Builder(inputs)

    # Base pictures: a detailed 640x480 one (baseline, progressive, and with standard tables), a
    # smooth one for tiny AC scans, and stampcam's own 1280x720 test card.
    pic = make_ppm(640, 480, seed=7)
    base = cjpeg(pic, "-quality", "90", "-optimize")
    std = cjpeg(pic, "-quality", "90")
    prog = cjpeg(pic, "-quality", "90", "-progressive")
    scans_al0 = os.path.join(work, "al0.scans")
    with open(scans_al0, "w") as f:  # spectral selection only, Al = 0: libjpeg accepts repeats silently
        f.write("0,1,2: 0 0 0 0;\n0: 1 63 0 0;\n1: 1 63 0 0;\n2: 1 63 0 0;\n")
    smooth = cjpeg(make_ppm(640, 480, seed=3, detail=False), "-quality", "90", "-scans", scans_al0)
    tiny = cjpeg(make_ppm(48, 48, seed=11), "-quality", "95", "-progressive")
    r = run([stampcam, "test-card", "--time", "2026-01-01T00:00:00Z", "-o", work])
    if r.returncode != 0:
        sys.exit("make_inputs: stampcam test-card failed: " + r.stderr.decode(errors="replace"))
    with open(os.path.join(work, "test-card.jpg"), "rb") as f:
        stamped_card = f.read()
    # The card is stamped, and its XMP says so: apply refuses it. The plain photo is the card without it.
    xmp = b"http://ns.adobe.com/xap/1.0/\0"
    card = remove(stamped_card, [s for s in all_of(stamped_card, 0xE1) if stamped_card[s.start + 4:].startswith(xmp)])

    # --- good photos: they must be done --------------------------------------------------------
    b.add("good-card", "good-card.jpg", card, "done", "a plain good photo (stampcam's own test card)")
    b.add("already-stamped", "already-stamped.jpg", stamped_card, "fail",
          "a photo stampcam stamped (its XMP has stampcam's record): refused, not stamped twice", code=65)
    b.add("good-baseline", "good-baseline.jpg", base, "done", "a plain good baseline JPEG (cjpeg)")
    b.add("good-progressive", "good-progressive.jpg", prog, "done", "a plain good progressive JPEG")
    b.add("name-latin1", b"caf\xe9.jpg", base, "done",
          "a non-UTF-8 file name (Latin-1 byte 0xE9): must be stamped under the same bytes, not skipped")
    b.add("name-long", "long-" + "n" * 246 + ".jpg", base, "done",
          "a 255-byte file name: a temp or output name built by appending to it would not fit")
    b.add("name-shell", "--help -o it's \"$(x)\".jpg", base, "done",
          "a name with dashes, spaces, quotes and $(): no option or shell parsing of names")
    big_exif = exif_app1(6 + 65528 - (len(exif_app1(6)) - 2))  # 6: over 4 bytes, so stored out of line
    assert struct.unpack(">H", big_exif[2:4])[0] == 65528
    b.add("exif-huge", "exif-huge.jpg", with_exif(base, big_exif), "done",
          "an APP1 Exif of 65,528 bytes (a 65 KB MakerNote): the rewritten EXIF cannot fit one "
          "segment; it must be kept, shrunk, with a warning naming what was dropped",
          warn=r"(?i)warning.*maker", exif=True)
    b.add("exif-nikon-note", "exif-nikon-note.jpg", with_exif(base, exif_app1(0, maker=nikon_type3_hostile())), "done",
          "a Nikon type 3 maker note whose offsets point past its end, past the segment and back at "
          "itself: the photo is stamped with its EXIF, nothing read from outside the block", exif=True)
    b.add("exif-bad-offset", "exif-bad-offset.jpg", with_exif(base, exif_app1(0, exif_ifd_offset=0x7FFFFFF0)),
          "done", "an Exif IFD pointer far past the segment: corrupt EXIF warns, the photo is stamped",
          warn=r"(?i)warning.*exif")
    b.add("dht-missing-std", "dht-missing-std.jpg", remove(std, all_of(std, 0xC4)), ORACLE,
          "all DHT segments removed from a file using the standard tables (like MJPEG frames)", origin=std)

    # --- truncations: the header, inside the scan, just before EOI ------------------------------
    segs = {s.marker: s for s in reversed(segments(base))}  # first of each marker
    sos = segs[0xDA]
    scan_len = sos.end - sos.hdr_end
    cuts = [("trunc-1-byte", 1, "one byte: a lone 0xFF"),
            ("trunc-soi", 2, "SOI only"),
            ("trunc-app0", segs[0xE0].start + 9, "inside APP0"),
            ("trunc-dqt", segs[0xDB].start + 30, "inside the first DQT"),
            ("trunc-sof", segs[0xC0].start + 8, "inside SOF (the dimensions half there)"),
            ("trunc-dht", segs[0xC4].start + 12, "inside the first DHT"),
            ("trunc-sos-header", sos.start + 6, "inside the SOS header"),
            ("trunc-scan-0", sos.hdr_end, "right after the SOS header: no scan data at all")]
    cuts += [("trunc-scan-%02d" % pct, sos.hdr_end + scan_len * pct // 100, "%d%% into the scan data" % pct)
             for pct in (1, 10, 25, 50, 75, 90, 99)]
    cuts += [("trunc-eoi-minus-%d" % n, sos.end - n, "%d bytes before EOI (end of the scan data lost)" % n)
             for n in (64, 8, 1)]
    cuts += [("trunc-half-eoi", len(base) - 1, "the last byte (EOI's 0xD9) cut: ends in a lone 0xFF"),
             ("trunc-no-eoi", len(base) - 2, "exactly the EOI marker missing: the whole picture is there")]
    for cid, at, what in cuts:
        b.add(cid, cid + ".jpg", base[:at], ORACLE, "truncated baseline: " + what, origin=base)
    pscans = all_of(prog, 0xDA)
    for k in (1, len(pscans) // 2, len(pscans) - 1):
        b.add("trunc-prog-after-scan-%d" % k, "trunc-prog-after-scan-%d.jpg" % k, prog[:pscans[k].start],
              ORACLE, "progressive cut cleanly between scans: %d of %d scans present" % (k, len(pscans)),
              origin=prog)
    mid = pscans[len(pscans) // 2]
    b.add("trunc-prog-mid-scan", "trunc-prog-mid-scan.jpg", prog[:(mid.hdr_end + mid.end) // 2], ORACLE,
          "progressive cut in the middle of scan %d" % (len(pscans) // 2), origin=prog)
    b.add("trunc-prog-no-eoi", "trunc-prog-no-eoi.jpg", prog[:-2], ORACLE,
          "progressive with exactly the EOI missing: every scan is there", origin=prog)
    b.add("trunc-card-50", "trunc-card-50.jpg", card[:len(card) // 2], ORACLE, "the test card cut in half",
          origin=card)
    b.add("trailing-junk", "trailing-junk.jpg", base + bytes(range(256)) * 16, ORACLE,
          "4 KB of junk after EOI (the picture itself is whole)", origin=base)

    # --- byte flips in the headers: SOF dimensions, DQT, DHT, SOS --------------------------------
    sof, dqt, dht = segs[0xC0].start, segs[0xDB].start, segs[0xC4].start
    flips = [
        ("sof-precision-12", patch(base, sof + 4, [12]), "SOF sample precision 8 -> 12 (12-bit JPEG)"),
        ("sof-height-0", set_dims(base, 640, 0), "SOF height 0"),
        ("sof-width-0", set_dims(base, 0, 480), "SOF width 0"),
        ("sof-height-x10", set_dims(base, 640, 4800), "SOF height 480 -> 4800: the data runs out"),
        ("sof-height-div10", set_dims(base, 640, 48), "SOF height 480 -> 48: most of the data left over"),
        ("sof-width-plus-1", set_dims(base, 641, 480), "SOF width 640 -> 641: MCU rows misaligned"),
        ("sof-ncomp-4", patch(base, sof + 9, [4]), "SOF claims 4 components, lists 3"),
        ("sof-ncomp-0", patch(base, sof + 9, [0]), "SOF claims 0 components"),
        ("sof-sampling-0", patch(base, sof + 11, [0x00]), "luma sampling factors 0x0"),
        ("sof-sampling-4x4", patch(base, sof + 11, [0x44]), "luma sampling factors 4x4 (MCU layout changes)"),
        ("sof-qtable-3", patch(base, sof + 12, [3]), "luma uses quantisation table 3, never defined"),
        ("sof-comp-id-dup", patch(base, sof + 13, [1]), "two components with the same id"),
        ("sof-length-short", patch(base, sof + 2, [0, 8]), "SOF length field too short"),
        ("dqt-index-9", patch(base, dqt + 4, [0x09]), "DQT table index 9"),
        ("dqt-16-bit", patch(base, dqt + 4, [0x10]), "DQT claims 16-bit entries: the segment is too short"),
        ("dqt-value-0", patch(base, dqt + 5, [0]), "a quantisation value of 0"),
        ("dqt-length-ffff", patch(base, dqt + 2, [0xFF, 0xFF]), "DQT length 65535: runs over everything"),
        ("dht-index-5", patch(base, dht + 4, [0x05]), "DHT table index 5"),
        ("dht-count-overflow", patch(base, dht + 5 + 15, [0xFF]), "DHT code counts add up to over 256"),
        ("dht-symbol-flip", xor(base, dht + 21, 0x0F), "a DHT symbol changed: codes decode to other values"),
        ("dht-length-short", patch(base, dht + 2, [0, 10]), "DHT length too short for its counts"),
        ("sos-ncomp-4", patch(base, sos.start + 4, [4]), "SOS claims 4 components"),
        ("sos-comp-unknown", patch(base, sos.start + 5, [9]), "SOS names component 9, not in SOF"),
        ("sos-table-7", patch(base, sos.start + 6, [0x77]), "SOS selects Huffman tables 7/7"),
        ("sos-spectral", patch(base, sos.hdr_end - 3, [5]), "baseline SOS with Ss = 5"),
        ("app0-length-0", patch(base, segs[0xE0].start + 2, [0, 0]), "APP0 length 0"),
        ("app0-length-ffff", patch(base, segs[0xE0].start + 2, [0xFF, 0xFF]), "APP0 length 65535: past EOF"),
        ("sof-missing", remove(base, [segs[0xC0]]), "no SOF segment at all"),
        ("sos-before-dht", remove(base, all_of(base, 0xC4)), "optimised tables removed: no DHT before SOS"),
    ]
    for cid, data, what in flips:
        b.add(cid, cid + ".jpg", data, ORACLE, "header flip: " + what, origin=base)
    rng = random.Random(20261201)
    for i in range(10):  # random single-byte flips anywhere in the header
        at = rng.randrange(2, sos.hdr_end)
        b.add("flip-header-%d" % i, "flip-header-%d-at-%d.jpg" % (i, at), xor(base, at, rng.randrange(1, 256)),
              ORACLE, "random header byte flip at offset %d" % at, origin=base)

    # --- byte flips in the scan data ------------------------------------------------------------
    third = sos.hdr_end + scan_len // 3
    b.add("scan-early-eoi", "scan-early-eoi.jpg", patch(base, third, b"\xff\xd9"), ORACLE,
          "an EOI marker a third into the scan", origin=base)
    b.add("scan-stray-rst", "scan-stray-rst.jpg", base[:third] + b"\xff\xd3" + base[third:], ORACLE,
          "a restart marker in a file without a restart interval", origin=base)
    b.add("scan-stray-sof", "scan-stray-sof.jpg", base[:third] + b"\xff\xc0\x00\x02" + base[third:], ORACLE,
          "a marker segment in the middle of the scan", origin=base)
    b.add("scan-zeroed-4k", "scan-zeroed-4k.jpg", patch(base, third, bytes(4096)), ORACLE,
          "4 KB of the scan zeroed", origin=base)
    b.add("scan-ff-run", "scan-ff-run.jpg", patch(base, third, b"\xff" * 512), ORACLE,
          "512 bytes of 0xFF fill in the scan", origin=base)
    for i in range(8):  # random flips inside the entropy-coded data, baseline and progressive
        src, name = (base, "base") if i < 5 else (prog, "prog")
        s = segments(src)
        scans = [x for x in s if x.marker == 0xDA]
        scan = scans[rng.randrange(len(scans))]
        at = rng.randrange(scan.hdr_end, scan.end)
        b.add("flip-scan-%d" % i, "flip-scan-%s-%d-at-%d.jpg" % (name, i, at), xor(src, at, rng.randrange(1, 256)),
              ORACLE, "random %s scan-data byte flip at offset %d" % (name, at), origin=src)

    # --- many scans and bombs: refused by hand-set rule (they must fail, fast and small) ----------
    b.add("scans-1000-ac", "scans-1000-ac.jpg", repeat_scan(smooth, 3, 1000), "fail",
          "a progressive whose last AC scan is repeated 1000 times (libjpeg decodes it without a "
          "warning; no encoder writes this; a scan limit must refuse it)")
    b.add("scans-1000-dc", "scans-1000-dc.jpg", repeat_scan(smooth, 0, 1000), "fail",
          "a progressive whose DC scan is repeated 1000 times")
    flat = cjpeg(flat_ppm(4000, 3000), "-quality", "90", "-scans", scans_al0)
    b.add("scans-1000-12mp", "scans-1000-12mp.jpg", repeat_scan(flat, 1, 1000), "fail",
          "a 12 MP progressive whose 16-byte luma AC scan is repeated 1000 times: ~60 KB that "
          "costs seconds of CPU (a time bomb under every size limit)")
    b.add("bomb-196mp-2kb", "bomb-196mp-2kb.jpg", set_dims(tiny, 14000, 14000), "fail",
          "a %d-byte progressive whose SOF claims 14000x14000 (196 MP, just under the 200 MP limit): "
          "the whole-image coefficient buffer alone would be ~600 MB" % len(tiny))
    b.add("bomb-14000-prog", "bomb-14000-prog.jpg", set_dims(prog, 14000, 14000), "fail",
          "a progressive with 640x480 worth of data claiming 14000x14000")
    b.add("bomb-14000-base", "bomb-14000-base.jpg", set_dims(base, 14000, 14000), "fail",
          "a baseline with 640x480 worth of data claiming 14000x14000")
    b.add("sof-over-limit", "sof-over-limit.jpg", set_dims(base, 60000, 60000), "fail",
          "SOF claims 60000x60000 (3600 MP): over the 200 MP limit, refused before decoding")

    # --- not JPEG data ----------------------------------------------------------------------------
    b.add("empty", "empty.jpg", b"", "fail", "an empty file")
    b.add("not-jpeg", "not-jpeg.jpg", b"this is not a photo\n" * 10, "fail", "text named .jpg")
    b.add("junk-before-soi", "junk-before-soi.jpg", b"\0" * 16 + base, "fail",
          "16 zero bytes before the SOI marker")
    b.add("soi-then-junk", "soi-then-junk.jpg", b"\xff\xd8" + b"\0" * 64, "fail",
          "the SOI marker and no marker after it: a broken JPEG, not 'not a JPEG'")
    b.add("soi-only", "soi-only.jpg", b"\xff\xd8", "fail", "the SOI marker alone: a JPEG cut after 2 bytes")
    assert base[-2:] == b"\xff\xd9"
    b.add("dnl-height", "dnl-height.jpg", set_dims(base, 640, 0)[:-2] + b"\xff\xdc\x00\x04" + struct.pack(">H", 480) + b"\xff\xd9",
          "fail", "a valid JPEG whose SOF says 0 lines and a DNL marker gives 480: unsupported by libjpeg, not corrupt")

    # --- hostile names on broken files: the one stderr line must name them, on one line ----------
    b.add("name-newline", b"trunc\nnewline.jpg", base[:len(base) // 2], "fail",
          "a truncated photo whose name has a newline: the error must stay one line")
    b.add("name-escape", b"\x1b[2J\x1b[31mred.jpg", base[:len(base) // 2], "fail",
          "a truncated photo whose name holds terminal escapes: must not reach stderr raw")
    b.add("name-bad-utf8", b"bad-\xff\xfe.jpg", base[:len(base) // 2], "fail",
          "a truncated photo whose name is not UTF-8: the error must still name it")

    # --- non-regular files named .jpg (the harness itself never opens them) -----------------------
    os.mkfifo(os.path.join(inputs, "x.jpg"))
    b.case("fifo", b"x.jpg", "fifo", "fail",
           "a named pipe called x.jpg: opening it for reading blocks forever", code=66)
    os.symlink("/dev/zero", os.path.join(inputs, "zero.jpg"))
    b.case("dev-zero", b"zero.jpg", "symlink", "fail",
           "a symlink to /dev/zero: endless zeros, size 0", code=66)
    os.symlink("no-such-photo.jpg", os.path.join(inputs, "dangling.jpg"))
    b.case("dangling", b"dangling.jpg", "symlink", "fail", "a symlink to nothing", code=66)
    os.symlink("loop.jpg", os.path.join(inputs, "loop.jpg"))
    b.case("symlink-loop", b"loop.jpg", "symlink", "fail", "a symlink to itself (ELOOP)", code=66)
    os.mkdir(os.path.join(inputs, "f.jpg"))
    b.case("dir-f-jpg", b"f.jpg", "dir", "none",
           "an (empty) folder named f.jpg: searched, not read as a photo; in the batch only")

    with open(os.path.join(work, "manifest.json"), "w") as f:
        json.dump({"cases": b.cases}, f, indent=1)
    # For run.sh: id NUL name NUL, one pair per input run on its own (folders only run in the batch).
    with open(os.path.join(work, "runs.list"), "wb") as f:
        for c in b.cases:
            if c["kind"] != "dir":
                f.write(c["id"].encode() + b"\0" + bytes.fromhex(c["name"]) + b"\0")
    counts = {}
    for c in b.cases:
        counts[c["expect"]] = counts.get(c["expect"], 0) + 1
    print("hostile: generated %d inputs (%s)" % (len(b.cases), ", ".join("%d %s" % (n, e) for e, n in
                                                                          sorted(counts.items()))))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--stampcam", required=True)
    p.add_argument("--inputs", required=True, help="folder to create and fill (must not exist)")
    p.add_argument("--work", required=True, help="folder for base images and the manifest")
    a = p.parse_args()
    build(a.stampcam, a.inputs, a.work)


if __name__ == "__main__":
    main()
