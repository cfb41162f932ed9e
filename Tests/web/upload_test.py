"""`serve --team` over real sockets: two people's tokens uploading ten photos at once (each
stamped and logged with its person's name, ten catalog rows, no temp files left); a removed
token refused; uploads that are huge, truncated, not a photo, a decompression bomb, or slow (a
byte a second: bounded, then dropped); and with the disk full (root: a small tmpfs)."""
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading

from serve import FAILSAFE, Server, check, wait_until
from uploads import form, leftovers, picture, request, team_add


def catalog(server):
    out = subprocess.run([server.binary, "log", "--json"], env=server.env, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def with_dimensions(jpeg, width, height):
    """The JPEG with its frame header claiming another size (a decompression bomb's trick)."""
    at = 2
    while at < len(jpeg):
        marker, length = jpeg[at + 1], struct.unpack(">H", jpeg[at + 2:at + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            return jpeg[:at + 5] + struct.pack(">HH", height, width) + jpeg[at + 9:]
        at += 2 + length
    raise ValueError("no frame header")


def main(binary):
    tokens = {}

    def make_team(env):
        tokens["Ana"] = team_add(binary, env, "Ana Lima", "--lock", "user")
        tokens["Ben"] = team_add(binary, env, "Ben")

    server = Server(binary, "--team", "--max-upload", "2", "--max-size", "0", keep_original=False, before=make_team)
    server.binary = binary
    try:
        photo = picture(640, 480)

        # Ten at once, five each.
        answers = []
        lock = threading.Lock()

        def send(person, index):
            result = request(server.port, form(photo, review="0", user="Mallory"), token=tokens[person])
            with lock:
                answers.append((person, result))
        threads = [threading.Thread(target=send, args=(person, i)) for i in range(5) for person in ("Ana", "Ben")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        check(all(status == 200 for _, (status, _) in answers), "ten uploads at once all saved (%s)" % answers)
        check(all(answer["user"] == ("Ana Lima" if person == "Ana" else "Mallory") for person, (_, answer) in answers),
              "each stamped with its person's name (a locked one whatever the page says)")
        check(len(server.photo_files()) == 10, "ten photos in the folder (%s)" % server.photo_files())
        check(leftovers(server.photos) == [], "no temp or claim files left (%s)" % leftovers(server.photos))
        rows = catalog(server)
        check(len(rows) == 10 and sorted(r.get("user") for r in rows) == ["Ana Lima"] * 5 + ["Mallory"] * 5,
              "ten catalog rows with the names (%s)" % [r.get("user") for r in rows])

        # Review: staged, then used.
        status, answer = request(server.port, form(photo), token=tokens["Ben"])
        check(status == 200 and answer["saved"] is False and answer["id"], "an upload waits for review (%s %s)" % (status, answer))
        status, used = request(server.port, json.dumps({"id": answer["id"]}).encode(), token=tokens["Ben"],
                               path="/api/photos/use", content_type="application/json")
        check(status == 200 and used["name"] in server.photo_files(), "Use saves it (%s %s)" % (status, used))

        # Removed: 401 and nothing else.
        subprocess.run([binary, "team", "remove", "Ben"], env=server.env, check=True, capture_output=True)
        status, answer = request(server.port, form(photo, review="0"), token=tokens["Ben"])
        check(status == 401 and set(answer) == {"error"}, "a removed token is refused (%s %s)" % (status, answer))
        status, answer = request(server.port, form(photo, review="0"), token="0123456789abcdef0123")
        check(status == 401, "an unknown token is refused (%s)" % status)
        check(len(server.photo_files()) == 11, "nothing saved for them")

        ana = tokens["Ana"]
        # Huge: refused before it is read.
        status, answer = request(server.port, b"", token=ana, length=3 << 20)
        check(status == 413 and "2 MB" in answer["error"], "a photo over --max-upload gets 413 (%s %s)" % (status, answer))
        # Truncated, not a photo, a bomb.
        status, answer = request(server.port, form(photo[:len(photo) // 2], review="0"), token=ana)
        check(status == 422, "a truncated photo gets 422 (%s %s)" % (status, answer))
        status, answer = request(server.port, form(b"<html>hello</html>", review="0"), token=ana)
        check(status == 422 and "JPEG, HEIC or PNG" in answer["error"], "not a photo gets 422 (%s %s)" % (status, answer))
        status, answer = request(server.port, form(with_dimensions(photo, 60000, 60000), review="0"), token=ana)
        check(status == 422, "a decompression bomb is refused before it is decoded (%s %s)" % (status, answer))
        cut = form(photo)
        status, answer = request(server.port, cut[:len(cut) - 40], token=ana, length=len(cut))
        check(status in (400, None), "a form cut short is not stamped (%s)" % status)

        # Slow: a byte a second is dropped once its time is up (the request's, and a little more for its size).
        body = form(photo)
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=FAILSAFE)
        sock.sendall(("POST /api/photos HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s\r\n"
                      "Content-Type: multipart/form-data; boundary=%s\r\nContent-Length: %d\r\n\r\n"
                      % (server.port, ana, body.split(b"\r\n")[0][2:].decode(), len(body))).encode())
        sock.settimeout(1)  # each byte waits a second for the server to answer or hang up
        sent, dropped = 0, False
        while not dropped and sent < FAILSAFE:
            try:
                sock.sendall(body[sent:sent + 1])
                sent += 1
                sock.recv(4096)
                dropped = True
            except socket.timeout:
                continue
            except OSError:
                dropped = True
        sock.close()
        check(dropped and sent < 60, "a slow upload is dropped (after %d bytes)" % sent)
        check(leftovers(server.photos) == [], "no temp files after the refusals (%s)" % leftovers(server.photos))
        check(len(server.photo_files()) == 11, "nothing saved from them (%s)" % server.photo_files())
        server.stop()
    finally:
        server.stop(check=False)
    full_disk(binary)


def full_disk(binary):
    """Photos on a full disk: a clear 507 and nothing partial left."""
    mount = tempfile.mkdtemp(prefix="stampcam-upload-full-")
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mount]).returncode != 0:
        print("skip full disk: mounting a small tmpfs needs root")
        os.rmdir(mount)
        return
    server = None
    try:
        photos = os.path.join(mount, "photos")
        tokens = {}
        server = Server(binary, "--team", "--max-size", "0", keep_original=False, photos=photos,
                        before=lambda env: tokens.update(Ana=team_add(binary, env, "Ana")))
        filler = os.open(os.path.join(mount, "filler"), os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(filler, b"\0" * 4096):
                pass
        except OSError:
            pass  # the disk is full
        os.close(filler)
        status, answer = request(server.port, form(picture(1200, 900, seed=3), review="0"), token=tokens["Ana"])
        check(status == 507 and ("full" in answer["error"] or "space" in answer["error"]) and mount not in answer["error"],
              "a full disk is named, without the server's folder (%s %s)" % (status, answer))
        check(server.photo_files() == [] and leftovers(photos) == [], "nothing partial on disk (%s %s)"
              % (server.photo_files(), leftovers(photos)))
        server.stop()
    finally:
        if server:
            server.stop(check=False)
        subprocess.run(["umount", mount])
        os.rmdir(mount)


if __name__ == "__main__":
    main(sys.argv[1])
