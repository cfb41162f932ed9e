"""make bench's quality guard: how much sharpness stampcam's resampling gives away.

For every corpus photo: the reference is libvips' `thumbnail` (Lanczos-3, shrink-on-load, EXIF
autorotate) to 1024 px, kept lossless; the peer is that same thumbnail through JPEG Q90 with
stampcam's chroma subsampling (4:2:0), so both sides pay the same encoder and only the resampling
differs; stampcam's output comes from `apply --json`. PSNR is taken on the region above the stamp
(the top 60% of rows). Prints one line a photo and the worst deficit (peer dB - stampcam dB).
Usage: quality.py STAMPCAM CORPUS WORKDIR [TARGET_DB]; exits 1 when a deficit passes TARGET_DB."""
import json
import math
import os
import subprocess
import sys

os.environ.setdefault("VIPS_CONCURRENCY", "1")
import pyvips  # noqa: E402

pyvips.cache_set_max(0)


def upper(image):
    image = image.colourspace("srgb") if image.bands < 3 else image
    return image.extract_band(0, n=3).crop(0, 0, image.width, int(image.height * 0.6))


def psnr(a, b):
    width, height = min(a.width, b.width), min(a.height, b.height)
    a, b = a.crop(0, 0, width, height).cast("float"), b.crop(0, 0, width, height).cast("float")
    mse = ((a - b) ** 2).avg()
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)


def main():
    stampcam, corpus, work = sys.argv[1:4]
    target = float(sys.argv[4]) if len(sys.argv) > 4 else 1.0
    out = os.path.join(work, "out-quality")
    subprocess.run(["rm", "-rf", out], check=True)
    sources = sorted(os.path.join(d, f) for d, _, files in os.walk(corpus) for f in files if f.lower().endswith(".jpg"))
    run = subprocess.run([stampcam, "apply", "-o", out, "-j", "2", "-q", "--json", "--user", "李伟 Li Wei",
                          "--location", "Pier 4, Nanjing", "--project", "Bridge 7", *sources],
                         capture_output=True, text=True)
    outputs = {}
    for line in run.stdout.splitlines():
        record = json.loads(line)
        if record.get("status") == "done":
            outputs[record["input"]] = record["output"]
    worst, worst_name, rows, missing = -99.0, "", [], 0
    for source in sources:
        name = os.path.relpath(source, corpus)
        if source not in outputs:
            print(f"  {name}: not stamped")
            missing += 1
            continue
        reference = pyvips.Image.thumbnail(source, 1024, size="down").copy_memory()
        peer = pyvips.Image.jpegload_buffer(reference.jpegsave_buffer(Q=90, subsample_mode="on"))
        ours = pyvips.Image.new_from_file(outputs[source])
        reference = upper(reference)
        peer_db, ours_db = psnr(reference, upper(peer)), psnr(reference, upper(ours))
        deficit = peer_db - ours_db
        rows.append((deficit, name, peer_db, ours_db, (ours.width, ours.height), (reference.width, reference.height)))
        if deficit > worst:
            worst, worst_name = deficit, name
    for deficit, name, peer_db, ours_db, size, ref_size in sorted(rows, reverse=True):
        note = "" if size[0] == ref_size[0] else f"  (size {size[0]}x{size[1]} vs {ref_size[0]}x{ref_size[1]})"
        print(f"  {peer_db:5.1f} dB peer  {ours_db:5.1f} dB stampcam  deficit {deficit:+5.2f}  {name}{note}")
    # A photo that was not stamped is a failure, not a photo that cannot be worse than the peer.
    met = worst <= target and rows and not missing
    if missing:
        print(f"quality: {missing} of {len(sources)} photos not stamped ({run.stderr.strip().splitlines()[-1:]})")
    verdict = "met" if met else "NOT met"
    print(f"quality: worst deficit {worst:+.2f} dB ({worst_name}); target <= {target:.1f} dB: {verdict}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
