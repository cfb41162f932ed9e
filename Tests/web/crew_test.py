"""`serve` under a crew, over real sockets: what a member of the team (or anyone on the network)
could do to the server, each case answered as documented and the server answering the next
request after it.

- Locks hold on every route: a member locked to user, project and style gets 403 from
  /api/fields and /api/style, and their upload carries the team's values, not the form's.
- Limits follow what the server knows: without a team, inventing a new X-Stampcam-Client for
  each upload does not get past the photos-under-review limit of one address.
- Time follows progress: a body announcing 52 MB and sending a byte now and then is cut once
  its grace is over; 64 of them lock nobody out; a chunked body gets 411 at once, never read.
- The form: a field sent twice, an altitude of 1e300 or -6,400,000 m, a hex latitude: 400.
- Uploads follow --exec, --keep-original and --name as camera photos do.
- team.json readable by others is warned about; a name with U+202E is refused; `team remove`
  says the link stops now; every error is JSON {"error": …} without a server path."""
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

from http_test import exchange, status, still_waiting
from serve import FAILSAFE, Server, check, isolated_env, wait_until
from uploads import BOUNDARY, form, picture, request, team_add

# A body must keep arriving after its grace: the server's request time (10 s) of grace, then at
# least 32 KB a second over each 10 s. Past that, and a second for the watch, it is cut.
CUT_AFTER = 10 + 10 + 2


def answers(server, what):
    """The server answers a plain request after `what`."""
    state = server.state()
    check("phase" in state, "the server answers the next request after " + what)


def json_error(reply):
    """The {"error": …} of a raw reply, or None when it is not one."""
    head, _, body = reply.partition(b"\r\n\r\n")
    if b"application/json" not in head.lower():
        return None
    try:
        answer = json.loads(body)
    except ValueError:
        return None
    return answer.get("error") if isinstance(answer, dict) and set(answer) == {"error"} else None


def team_locks(binary):
    tokens = {}

    def make_team(env):
        tokens["Ana"] = team_add(binary, env, "Ana", "--lock", "user,project,style")
        tokens["Ben"] = team_add(binary, env, "Ben", "--project", "Bridge 7")

    server = Server(binary, "--team", "--max-size", "0", keep_original=False, before=make_team)
    try:
        host = b"Host: 127.0.0.1:%d\r\n" % server.port

        def post(path, body, token):
            reply = exchange(server.port, b"POST " + path + b" HTTP/1.1\r\n" + host + b"Content-Type: application/json\r\n"
                             b"Authorization: Bearer " + token.encode() + b"\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                             % len(body) + body)
            return status(reply), json_error(reply), reply

        # The server's camera is not a member's to drive at all; their own page's values keep the locks.
        for path, body in ((b"/api/fields", b'{"user": "Mallory"}'), (b"/api/style", b'{"step": 1}')):
            code, error, reply = post(path, body, tokens["Ana"])
            check(code == 403 and error, "a member: %s %s is 403 (%s)" % (path.decode(), body.decode(), reply[:300]))
        for body in (b'{"project": "Other"}', b'{"style": 1}', b'{"style": "minimal"}', b'{"note": "n", "project": "P"}'):
            code, error, reply = post(b"/api/me", body, tokens["Ana"])
            check(code == 403 and error and "locked" in error, "a locked member: /api/me %s is 403 (%s)" % (body.decode(), reply[:300]))
            answers(server, "a locked change")
        check(server.state()["fields"]["user"] is None, "the camera's fields are untouched")
        code, error, reply = post(b"/api/me", b'{"note": "north wall"}', tokens["Ana"])
        check(code == 200, "a field that is not locked may be set (%s)" % reply[:200])
        code, error, reply = post(b"/api/me", b'{"project": "Tunnel", "style": 1}', tokens["Ben"])
        check(code == 200, "a member without locks may set the project and style (%s)" % reply[:200])
        code, answer = request(server.port, form(picture(320, 240)), token=tokens["Ana"])
        check(code == 200 and answer.get("id"), "a locked member's photo waits for review (%s)" % answer)
        code, error, reply = post(b"/api/photos/restyle", b'{"id": "%s", "style": 1}' % answer["id"].encode(), tokens["Ana"])
        check(code == 403 and error and "locked" in error, "a locked member cannot restyle it (%s)" % reply[:300])

        photo = picture(320, 240)
        code, answer = request(server.port, form(photo, review="0", user="Mallory", project="Evil"), token=tokens["Ana"])
        check(code == 200 and answer["user"] == "Ana" and answer["project"] is None,
              "a locked member's upload has the team's name and no project, whatever the form says (%s)" % answer)
        code, answer = request(server.port, form(photo, review="0", project="Tunnel"), token=tokens["Ben"])
        check(code == 200 and answer["project"] == "Tunnel", "an unlocked member's page chooses the project (%s)" % answer)
        answers(server, "uploads")
        server.stop()
    finally:
        server.stop(check=False)


def limits_by_address(binary):
    """Without a team: 12 uploads under review, each claiming another client id, from one address."""
    server = Server(binary, "--max-size", "0", keep_original=False)
    try:
        photo = picture(320, 240)
        body = form(photo)
        codes = []
        for index in range(12):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=FAILSAFE)
            sock.sendall(("POST /api/photos HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: multipart/form-data; boundary=%s\r\n"
                          "X-Stampcam-Client: invented-client-%04d\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                          % (server.port, BOUNDARY, index, len(body))).encode() + body)
            data = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
            sock.close()
            codes.append(status(data))
        check(codes.count(200) == 4 and all(code in (409, 429) for code in codes[4:]),
              "one address keeps 4 photos under review however many client ids it invents (%s)" % codes)
        answers(server, "the refused uploads")
        server.stop()
    finally:
        server.stop(check=False)


def slow_bodies(binary):
    """Bodies that trickle: cut once their grace is over, whatever length they announce (52 MB is
    within the default --max-upload with the form around it, so nothing refuses them at once)."""
    server = Server(binary, keep_original=False)
    port = server.port
    head = ("POST /api/photos HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
            "Content-Type: multipart/form-data; boundary=%s\r\nContent-Length: 52000000\r\n\r\n" % (port, BOUNDARY)).encode()
    # 64 connections from four addresses, every one the server takes, each a byte a second.
    socks = []
    stop = threading.Event()
    cut = {}

    def trickle():
        while not stop.wait(1):
            for index, sock in enumerate(socks):
                if index in cut:
                    continue
                if not still_waiting(sock):
                    cut[index] = time.monotonic()
                    continue
                try:
                    sock.sendall(b"-")
                except OSError:
                    cut[index] = time.monotonic()
    thread = threading.Thread(target=trickle, daemon=True)
    try:
        for address in range(4):
            for _ in range(16):
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.bind(("127.0.0.%d" % (30 + address), 0))
                sock.connect(("127.0.0.1", port))
                sock.sendall(head)
                socks.append(sock)
        started = time.monotonic()
        thread.start()
        wait_until(lambda: len(cut) == len(socks), "every trickling upload to be cut")
        first, last = min(cut.values()) - started, max(cut.values()) - started
        check(first >= 9 and last <= CUT_AFTER + 5,
              "64 uploads announcing 52 MB and sending a byte a second are held through their grace, then cut"
              " (after %.0f to %.0f s)" % (first, last))
        answers(server, "the trickling uploads")
        server.stop()
    finally:
        stop.set()
        if thread.is_alive():
            thread.join()
        for sock in socks:
            sock.close()
        server.stop(check=False)


def hostile_http(binary):
    tokens = {}
    server = Server(binary, "--team", "--max-upload", "2", "--max-size", "0", keep_original=False,
                    before=lambda env: tokens.update(Ana=team_add(binary, env, "Ana")))
    try:
        port = server.port
        token = tokens["Ana"]
        # An endless chunked upload: 411 at once, nothing read.
        sock = socket.create_connection(("127.0.0.1", port), timeout=FAILSAFE)
        sock.sendall(("POST /api/photos HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s\r\n"
                      "Content-Type: multipart/form-data; boundary=%s\r\nTransfer-Encoding: chunked\r\n\r\n"
                      % (port, token, BOUNDARY)).encode())
        chunk = b"%x\r\n%s\r\n" % (65536, b"x" * 65536)
        reply, sent = b"", 0
        sock.settimeout(0.05)
        while not reply and sent < 4096:  # 256 MB at most: far past the limit
            try:
                sock.sendall(chunk)
                sent += 1
            except OSError:
                pass
            try:
                reply = sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                break
        sock.close()
        check(status(reply) == 411 and json_error(reply), "an endless chunked upload: 411 at once (after %d KB; %s)" % (sent * 64, reply[:200]))
        answers(server, "an endless chunked upload")

        # The form's fields: read as --gps reads a position, and each once.
        photo = picture(320, 240)
        for fields, what in (({"user": "Ana"}, "a field sent twice"),
                             ({"latitude": "60.17", "longitude": "24.94", "altitude": "1e300"}, "an altitude of 1e300"),
                             ({"latitude": "60.17", "longitude": "24.94", "altitude": "-6400000"}, "an altitude of -6,400,000 m"),
                             ({"latitude": "0x3C", "longitude": "24.94"}, "a hex latitude"),
                             ({"latitude": "60.17", "longitude": "24.94", "accuracy": "1e19"}, "an accuracy of 1e19"),
                             ({"altitude": "35"}, "an altitude without a position")):
            body = form(photo, review="0", **fields)
            if what == "a field sent twice":
                body = form(photo, review="0", user="Bob").replace(b"--" + BOUNDARY.encode(), b"--%s\r\nContent-Disposition: form-data; "
                                                                                            b"name=\"user\"\r\n\r\nAna\r\n--%s"
                                                                                            % (BOUNDARY.encode(), BOUNDARY.encode()), 1)
            code, answer = request(port, body, token=token)
            check(code == 400 and isinstance(answer, dict) and set(answer) == {"error"}, "%s: 400 (%s %s)" % (what, code, answer))
            answers(server, what)

        # Every refusal is JSON {"error": …}, without the server's folders.
        host = b"Host: 127.0.0.1:%d\r\n" % port
        auth = b"Authorization: Bearer " + token.encode() + b"\r\n"
        cases = [
            (b"GET /nowhere HTTP/1.1\r\n" + host + auth + b"Connection: close\r\n\r\n", 404),
            (b"GET /shots/none.jpg HTTP/1.1\r\n" + host + auth + b"Connection: close\r\n\r\n", 404),
            (b"GET /uploads/77 HTTP/1.1\r\n" + host + auth + b"Connection: close\r\n\r\n", 404),
            (b"GET / HTTP/1.1\r\nHost: 10.1.1.1:%d\r\nConnection: close\r\n\r\n" % port, 403),
            (b"GET /api/state HTTP/1.1\r\n" + host + b"Authorization: Bearer wrong-token-0000000\r\nConnection: close\r\n\r\n", 401),
            (b"GET /api/photos HTTP/1.1\r\n" + host + auth + b"Connection: close\r\n\r\n", 405),
            (b"POST /api/style HTTP/1.1\r\n" + host + auth + b"Content-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}", 415),
            (b"POST /api/style HTTP/1.1\r\n" + host + auth + b"Content-Type: application/json\r\nContent-Length: 99999\r\n\r\n", 413),
            (b"POST /api/photos HTTP/1.1\r\n" + host + auth + b"Content-Type: multipart/form-data; boundary=x\r\n"
             b"Content-Length: 9999999\r\n\r\n", 413),
            (b"POST /api/style HTTP/1.1\r\n" + host + auth + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n", 411),
        ]
        for raw, expected in cases:
            reply = exchange(port, raw)
            error = json_error(reply)
            check(status(reply) == expected and error and server.photos not in error,
                  "%s: %d with a JSON error (%s)" % (raw.split(b"\r\n")[0].decode(), expected, reply[:300]))
        # libmicrohttpd answers a Content-Length that is no number itself, before stampcam sees the
        # request: the server goes on.
        exchange(port, b"POST /api/style HTTP/1.1\r\n" + host + b"Content-Length: abc\r\n\r\n")
        answers(server, "a Content-Length that is no number")
        server.stop()
    finally:
        server.stop(check=False)


def options_followed(binary):
    """--exec, --keep-original and --name: a phone's photo gets what a camera photo gets."""
    tokens = {}
    shared = tempfile.mkdtemp(prefix="stampcam-shared-")
    server = Server(binary, "--team", "--max-size", "0", "--name", "{user}-{seq}.jpg", "--exec", "cp {} " + shared,
                    keep_original=True, before=lambda env: tokens.update(Ana=team_add(binary, env, "Ana")))
    try:
        code, answer = request(server.port, form(picture(640, 480), review="0"), token=tokens["Ana"])
        check(code == 200 and answer["name"].startswith("Ana-") and answer["name"].endswith(".jpg"),
              "--name names the phone's photo (%s %s)" % (code, answer))
        stem = answer["name"][:-4]
        files = server.photo_files()
        check(stem + ".original.jpg" in files and stem + ".json" in files, "--keep-original keeps its original and sidecar (%s)" % files)
        wait_until(lambda: os.path.exists(os.path.join(shared, answer["name"])), "--exec to run for the phone's photo")
        check(True, "--exec runs for the phone's photo")
        restamp = subprocess.run([binary, "restamp", os.path.join(server.photos, answer["name"]), "-t", "minimal"],
                                 env=server.env, capture_output=True, text=True)
        check(restamp.returncode == 0, "the phone's photo can be stamped again (%s)" % restamp.stderr.strip())
        server.stop()
    finally:
        server.stop(check=False)


def team_file(binary):
    env = isolated_env(tempfile.mkdtemp(prefix="stampcam-team-"))
    result = subprocess.run([binary, "team", "add", "Ana\u202eevil"], env=env, capture_output=True, text=True)
    check(result.returncode != 0 and "direction" in result.stderr, "a name with U+202E is refused (%s)" % result.stderr.strip())
    team_add(binary, env, "Ana")
    config = os.path.join(env["XDG_CONFIG_HOME"], "stampcam", "team.json")
    with open(config) as f:
        document = json.load(f)
    document["people"].append({"name": "Eve\u202eevil", "token": "0123456789abcdef0123"})
    with open(config, "w") as f:
        json.dump(document, f)
    os.chmod(config, 0o644)
    listed = subprocess.run([binary, "team", "list"], env=env, capture_output=True, text=True)
    check("\u202e" not in listed.stdout and "Eve\\u{202E}evil" in listed.stdout, "team list shows a direction mark escaped (%r)" % listed.stdout)
    check("can be read by other users" in listed.stderr, "a team file others can read is warned about (%s)" % listed.stderr.strip())
    server = Server(binary, "--team", keep_original=False, before=lambda own: own.update(env))
    try:
        check("can be read by other users" in server.stderr(), "serve --team warns about it too")
        removed = subprocess.run([binary, "team", "remove", "Ana"], env=env, capture_output=True, text=True)
        check("stops working now" in removed.stderr and "started again" not in removed.stderr,
              "team remove says the link stops now (%s)" % removed.stderr.strip())
        server.stop()
    finally:
        server.stop(check=False)


def main(binary):
    team_locks(binary)
    limits_by_address(binary)
    slow_bodies(binary)
    hostile_http(binary)
    options_followed(binary)
    team_file(binary)


if __name__ == "__main__":
    main(sys.argv[1])
