"""For the libjpeg floor: reads NUL-separated JPEG paths on stdin and writes "N\\0path\\0" pairs, N the
DCT scale denominator stampcam picks (the largest shrink that keeps the long side >= 1024)."""
import struct
import sys


def size(path):
    with open(path, "rb") as f:
        data = f.read(1 << 20)
    i = 2
    while i + 9 < len(data):
        marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    return 0, 0


for path in filter(None, sys.stdin.buffer.read().split(b"\0")):
    long_side = max(size(path))
    n = next((d for d in (8, 4, 2) if long_side // d >= 1024), 1)
    sys.stdout.buffer.write(b"%d\0%s\0" % (n, path))
