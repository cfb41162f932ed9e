"""`serve --tls`: HTTPS with a certificate made on first use and kept with the keys (the same one
the next time), its fingerprint printed as the browser will show it; plain HTTP to the port gets no
answer; a phone's upload over HTTPS works, with the Origin of an https page."""
import hashlib
import os
import socket
import ssl
import sys

from serve import FAILSAFE, Server, check
from uploads import form, picture, request, team_add


def served_fingerprint(port):
    pem = ssl.get_server_certificate(("127.0.0.1", port))
    digest = hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem)).hexdigest().upper()
    return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


def printed_fingerprint(server):
    lines = [l for l in server.stderr().splitlines() if "fingerprint" in l]
    return lines[-1].rsplit(" ", 1)[1] if lines else None


def main(binary):
    tokens = {}
    server = Server(binary, "--tls", "--team", keep_original=False, before=lambda env: tokens.update(Ana=team_add(binary, env, "Ana")))
    home_env = server.env
    try:
        check(server.url.startswith("https://"), "the address printed is https (%s)" % server.url)
        first = served_fingerprint(server.port)
        check(printed_fingerprint(server) == first, "the printed fingerprint is the served certificate's (%s, %s)"
              % (printed_fingerprint(server), first))
        keys = os.path.join(home_env["XDG_DATA_HOME"], "stampcam", "keys")
        check(oct(os.stat(os.path.join(keys, "tls.key")).st_mode & 0o777) == "0o600", "the key is its owner's alone")

        # Plain HTTP to the HTTPS port: no HTTP answer.
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=FAILSAFE)
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        data = b""
        try:
            while True:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
        except (ConnectionResetError, socket.timeout):
            pass
        sock.close()
        check(not data.startswith(b"HTTP/"), "plain HTTP gets no HTTP answer (%r)" % data[:40])

        status, answer = request(server.port, form(picture(320, 240), review="0"), token=tokens["Ana"], tls=True)
        check(status == 200 and answer["user"] == "Ana", "an upload over HTTPS is stamped (%s %s)" % (status, answer))
        server.stop()
    finally:
        server.stop(check=False)

    again = Server(binary, "--tls", keep_original=False, before=lambda env: env.update(home_env))
    try:
        check(served_fingerprint(again.port) == first, "the next start uses the same certificate")
        again.stop()
    finally:
        again.stop(check=False)


if __name__ == "__main__":
    main(sys.argv[1])
