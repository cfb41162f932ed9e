"""The QR code `serve --listen 0.0.0.0` prints on a terminal: it decodes (zbarimg) to exactly the
first address printed, token included, so a phone's camera opens the right page."""
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

from serve import FAILSAFE, check, isolated_env


def png(rows, path, scale=8):
    raw = b"".join((b"\x00" + b"".join((b"\x00" if dark else b"\xff") * scale for dark in row)) * scale for row in rows)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", len(rows[0]) * scale, len(rows) * scale, 8, 0, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def main(binary):
    folder = tempfile.mkdtemp(prefix="stampcam-qr-")
    primary, secondary = pty.openpty()  # stdout a terminal: that is when the code is drawn
    errors_read, errors_write = os.pipe()
    process = subprocess.Popen([binary, "serve", "--device", "test", "--listen", "0.0.0.0:0", "-o", folder + "/photos"],
                               stdout=secondary, stderr=errors_write, env=isolated_env(folder))
    os.close(secondary)
    os.close(errors_write)
    # The warning to share the address with care comes on stderr after the code is drawn: read
    # the terminal until it has come (the terminal's output read all along, so it never fills up).
    output, errors = b"", b""
    deadline = time.monotonic() + FAILSAFE
    while b"anyone with this address" not in errors:
        if time.monotonic() > deadline:
            raise AssertionError("serve never warned about sharing its address; stderr: %r" % errors)
        ready, _, _ = select.select([primary, errors_read], [], [], 1.0)
        if primary in ready:
            output += os.read(primary, 65536)
        if errors_read in ready:
            errors += os.read(errors_read, 65536)
    while select.select([primary], [], [], 0)[0]:  # what the terminal still holds
        chunk = os.read(primary, 65536)
        if not chunk:
            break
        output += chunk
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=FAILSAFE)
    os.close(primary)
    os.close(errors_read)
    text = output.decode("utf-8", "replace").replace("\r", "")
    urls = [line for line in text.split("\n") if line.startswith("http://")]
    rows = []
    for line in text.split("\n"):
        if "\x1b[30;107m" in line:
            body = line.split("\x1b[30;107m")[1].split("\x1b[0m")[0]
            rows.append([c in "█▀" for c in body])
            rows.append([c in "█▄" for c in body])
    check(urls and "?token=" in urls[0], "serve printed its address with the token: " + (urls[0] if urls else "none"))
    check(len(rows) > 20, "and a QR code (%d modules a side with its margin)" % (len(rows[0]) if rows else 0))
    image = os.path.join(folder, "qr.png")
    png(rows, image)
    decoded = subprocess.run(["zbarimg", "-q", "--raw", image], capture_output=True, text=True).stdout.strip()
    check(decoded == urls[0], "the QR code decodes to the first address: " + decoded)
    check(process.returncode == 0, "SIGTERM: exit 0")


if __name__ == "__main__":
    main(sys.argv[1])
