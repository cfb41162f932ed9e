"""What stamping in place kept, photo by photo: decoded by the same decoder (djpeg), the rows the
stamp changed form one band, and every pixel outside it is byte-identical to the original's (the
band's height is printed, as a share of the photo); PSNR of the whole photo against the original,
in place and re-encoded whole (--reencode, compared upright: both through ImageMagick -auto-orient);
the file's size against the original's.
Usage: fullsize.py LIST OUT_IN_PLACE OUT_REENCODE (LIST: NUL-separated photo paths)."""
import math
import os
import statistics
import subprocess
import sys

import numpy


def pixels(command):
    data = subprocess.run(command, capture_output=True, check=True).stdout
    # P6 header: magic, width height, maximum, one whitespace byte, then the samples.
    fields, offset = [], 0
    while len(fields) < 4:
        while data[offset:offset + 1].isspace():
            offset += 1
        end = offset
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[offset:end])
        offset = end
    width, height = int(fields[1]), int(fields[2])
    return numpy.frombuffer(data[offset + 1:offset + 1 + width * height * 3], dtype=numpy.uint8).reshape(height, width, 3)


def psnr(a, b):
    mse = numpy.mean((a.astype(numpy.float64) - b.astype(numpy.float64)) ** 2)
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)


paths = [p for p in open(sys.argv[1], "rb").read().decode().split("\0") if p]
in_place, reencoded = sys.argv[2], sys.argv[3]
bands, gains, sizes, outside_psnr, kept = [], [], [], [], 0
for path in paths:
    name = os.path.basename(path)
    out = os.path.join(in_place, name)
    if not os.path.exists(out):
        print(f"{name}: not stamped")
        continue
    original, stamped = pixels(["djpeg", "-ppm", path]), pixels(["djpeg", "-ppm", out])
    if original.shape != stamped.shape:
        print(f"{name}: {stamped.shape} is not the original's {original.shape} (encoded whole)")
        continue
    changed = numpy.nonzero(numpy.any(original != stamped, axis=(1, 2)))[0]
    band = (changed[-1] - changed[0] + 1) if len(changed) else 0
    outside = numpy.concatenate([original[:changed[0]], original[changed[-1] + 1:]]) if len(changed) else original
    same = numpy.array_equal(outside, numpy.concatenate([stamped[:changed[0]], stamped[changed[-1] + 1:]]) if len(changed) else stamped)
    kept += same
    upright = pixels(["convert", path, "-auto-orient", "ppm:-"])
    whole = pixels(["convert", os.path.join(reencoded, name), "-auto-orient", "ppm:-"])
    here, there = psnr(original, stamped), psnr(upright, whole) if upright.shape == whole.shape else float("nan")
    rest = ""
    if len(changed) and upright.shape == original.shape and numpy.array_equal(upright, pixels(["convert", path, "ppm:-"])):
        # Stored upright: the re-encoded photo's rows outside the same band, against the original's.
        keep = numpy.ones(original.shape[0], dtype=bool)
        keep[changed[0]:changed[-1] + 1] = False
        outside_psnr.append(psnr(upright[keep], whole[keep]))
        rest = f"; outside the band re-encoded {outside_psnr[-1]:.1f} dB"
    size = os.path.getsize(out) / os.path.getsize(path)
    bands.append(band / original.shape[0])
    gains.append(here - there)
    sizes.append(size)
    print(f"{name}: stamp band {band} of {original.shape[0]} rows, outside it identical: {'yes' if same else 'NO'}; "
          f"PSNR of the whole photo in place {here:.1f} dB, re-encoded {there:.1f} dB{rest}; size {size:.3f} of the original")
if bands:
    print(f"in place: {kept} of {len(bands)} photos byte-identical outside the stamp band; band median {statistics.median(bands):.1%} "
          f"of the rows (max {max(bands):.1%}); PSNR of the whole photo (the stamp dominates it) in place minus re-encoded: "
          f"median {statistics.median(gains):+.1f} dB (min {min(gains):+.1f}); size against the original median {statistics.median(sizes):.3f} "
          f"(range {min(sizes):.3f}-{max(sizes):.3f})")
if outside_psnr:
    print(f"in place: outside the stamp band the photo is the original's; re-encoded whole it is {statistics.median(outside_psnr):.1f} dB "
          f"there (median of the {len(outside_psnr)} photos stored upright; worst {min(outside_psnr):.1f} dB)")
