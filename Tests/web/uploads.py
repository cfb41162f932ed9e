"""Photos as a phone sends them: made here (a generated picture encoded by cjpeg), put in a
multipart/form-data body, posted to `/api/photos` with a person's token."""
import json
import os
import random
import socket
import ssl
import subprocess
import uuid

BOUNDARY = "stampcam-test-" + uuid.uuid4().hex


def picture(width, height, seed=1, quality=90):
    """A JPEG of a deterministic noisy picture (noise keeps cjpeg from making it small)."""
    rng = random.Random(seed)
    noise = bytes(rng.randrange(256) for _ in range(65536))
    row_bytes = width * 3
    rows = []
    for y in range(height):
        start = (y * 7919) % (65536 - row_bytes) if row_bytes < 65536 else 0
        row = bytearray(noise[start:start + row_bytes]) if row_bytes < 65536 else bytearray(row_bytes)
        for x in range(0, width, 16):
            row[3 * x] = (x * 255 // max(width - 1, 1)) & 255
        rows.append(bytes(row))
    ppm = b"P6\n%d %d\n255\n" % (width, height) + b"".join(rows)
    return subprocess.run(["cjpeg", "-quality", str(quality)], input=ppm, capture_output=True, check=True).stdout


def form(photo, **fields):
    """A multipart/form-data body: the fields, then the photo."""
    parts = []
    for name, value in fields.items():
        parts.append(("--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n" % (BOUNDARY, name, value)).encode())
    parts.append(("--%s\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"phone.jpg\"\r\n"
                  "Content-Type: image/jpeg\r\n\r\n" % BOUNDARY).encode() + photo + b"\r\n")
    parts.append(("--%s--\r\n" % BOUNDARY).encode())
    return b"".join(parts)


def request(port, body, token=None, path="/api/photos", content_type=None, tls=False, timeout=60, length=None,
            source="127.0.0.1"):
    """(status, JSON answer or raw bytes) of one POST over a fresh connection from `source` (each
    phone its own address, as the server's per-address connection limit expects)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        sock = context.wrap_socket(sock)
    head = ["POST %s HTTP/1.1" % path, "Host: 127.0.0.1:%d" % port,
            "Content-Type: %s" % (content_type or "multipart/form-data; boundary=" + BOUNDARY),
            "Content-Length: %d" % (len(body) if length is None else length), "Connection: close"]
    if token:
        head.append("Authorization: Bearer " + token)
    sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + body)
    data = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    sock.close()
    head, _, answer = data.partition(b"\r\n\r\n")
    try:
        status = int(head.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return None, data
    try:
        return status, json.loads(answer)
    except ValueError:
        return status, answer


def team_add(binary, env, name, *args):
    """Adds `name` to the team in `env`'s home; their token."""
    out = subprocess.run([binary, "team", "add", name, *args], env=env, capture_output=True, text=True, check=True).stdout
    return out.strip().splitlines()[0].split("token=", 1)[1]


def leftovers(folder):
    """Hidden files in the photos folder other than its marker: temp files, claims."""
    return [n for n in os.listdir(folder) if n.startswith(".") and n != ".stampcam"] if os.path.isdir(folder) else []
