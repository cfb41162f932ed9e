"""The bench job with pyvips: orient, fit 1024, a four-line box with a CJK line, JPEG q90, EXIF kept.
Two worker threads (libvips releases the GIL); each libvips operation single-threaded so the total
is two cores, like `stampcam apply -j 2`."""
import os
import sys
from concurrent.futures import ThreadPoolExecutor

os.environ.setdefault("VIPS_CONCURRENCY", "1")
import pyvips  # noqa: E402

pyvips.cache_set_max(0)
MARKUP = ("<b>2026-11-29  14:03 +08:00</b>\nUser  李伟 Li Wei\nLocation  Pier 4, Nanjing\nProject  Bridge 7")


def stamp(source, target):
    image = pyvips.Image.thumbnail(source, 1024, size="down")  # shrink-on-load and EXIF autorotate
    if image.bands == 1:
        image = image.colourspace("srgb")
    short = min(image.width, image.height)
    size = max(9, int(short * 0.032))
    text = pyvips.Image.text(MARKUP, font=f"DejaVu Sans {size}px", rgba=True, dpi=72)
    pad = int(short * 0.02)
    box = (pyvips.Image.black(text.width + 2 * pad, text.height + 2 * pad, bands=3)
           .bandjoin(140).copy(interpretation="srgb"))
    x, y = int(short * 0.03), image.height - int(short * 0.03) - box.height
    image = image.composite([box, text], "over", x=[x, x + pad], y=[y, y + pad])
    image.jpegsave(target, Q=90, optimize_coding=True)


def main():
    out, sources = sys.argv[1], sys.argv[2:]
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda s: stamp(s, os.path.join(out, os.path.basename(s))), sources))


if __name__ == "__main__":
    main()
