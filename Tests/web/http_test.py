"""Hostile HTTP at the socket level: huge, truncated, slow, empty and non-UTF-8 requests, paths
that climb out of /shots/, bodies that are not JSON. Nothing crashes or hangs, each gets its
documented answer, and the server keeps serving."""
import json
import socket
import sys

from serve import FAILSAFE, Server, check


def exchange(port, raw, read=True, timeout=FAILSAFE):
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.sendall(raw)
    data = b""
    if read:
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
                if b"\r\n\r\n" in data and not data.startswith(b"HTTP/1.1 100"):
                    head, _, body = data.partition(b"\r\n\r\n")
                    length = [int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
                    if length and len(body) >= length[0]:
                        break
        except socket.timeout:
            pass
    sock.close()
    return data


def still_waiting(sock):
    """Whether the connection is open with nothing come back yet: neither an answer nor a close."""
    try:
        sock.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK)
        return False  # an answer, or the end of the connection
    except BlockingIOError:
        return True
    except OSError:
        return False


def status(data):
    try:
        return int(data.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return None


def main(binary):
    server = Server(binary, keep_original=False)
    port = server.port
    host = b"Host: 127.0.0.1:%d\r\n" % port
    try:
        def post(path, body, content_type=b"application/json", extra=b""):
            return exchange(port, b"POST " + path + b" HTTP/1.1\r\n" + host + b"Content-Type: " + content_type +
                            b"\r\nContent-Length: %d\r\nConnection: close\r\n" % len(body) + extra + b"\r\n" + body)

        reply = post(b"/api/style", b"x" * 20000)
        check(status(reply) == 413, "a body over 16 KB: 413 (%s)" % status(reply))
        reply = exchange(port, b"POST /api/style HTTP/1.1\r\n" + host + b"Content-Type: application/json\r\n"
                         b"Content-Length: 1000000000\r\nConnection: close\r\n\r\n{")
        check(status(reply) == 413, "a body announced as 1 GB: 413 at once, nothing read")
        chunk = b"%x\r\n%s\r\n" % (8192, b"x" * 8192)
        reply = exchange(port, b"POST /api/style HTTP/1.1\r\n" + host + b"Content-Type: application/json\r\n"
                         b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunk * 4 + b"0\r\n\r\n")
        check(status(reply) == 411 and b'"error"' in reply, "a chunked body: 411 at once, its length unknown (%s)" % status(reply))
        reply = post(b"/api/style", b"{\"step\": ")
        check(status(reply) == 400 and b"not JSON" in reply, "truncated JSON: 400")
        reply = post(b"/api/style", b"{\"id\": \"\xff\xfe\"}")
        check(status(reply) == 400, "non-UTF-8 in JSON: 400")
        reply = post(b"/api/style", b"[" * 5000 + b"]" * 5000)
        check(status(reply) == 400, "JSON nested 5000 deep: 400")
        reply = post(b"/api/style", b"{\"id\": \"no-such-style\"}")
        check(status(reply) == 400 and b"no style" in reply, "an unknown style: 400 naming it")
        reply = post(b"/api/retake", b"")
        check(status(reply) == 409, "retake with nothing to retake: 409")
        reply = post(b"/api/focus", b"{\"x\": 2, \"y\": 0.5}")
        check(status(reply) == 400, "focus outside the picture: 400")
        reply = post(b"/api/fields", b"{\"user\": 7}")
        check(status(reply) == 400, "a field that is not text: 400")
        reply = post(b"/api/fields", b"{\"user\": \"" + b"x" * 600 + b"\"}")
        check(status(reply) == 400, "a field of 600 characters: 400")
        # Truncated: the body never comes; a peer that vanishes mid-request.
        exchange(port, b"POST /api/style HTTP/1.1\r\n" + host + b"Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{\"st",
                 read=False)
        exchange(port, b"GET /api/sta", read=False)
        exchange(port, b"", read=False)
        for path in (b"/shots/../../../../etc/passwd", b"/shots/..%2F..%2F..%2Fetc%2Fpasswd", b"/shots/%2e%2e/%2e%2e/etc/passwd",
                     b"/shots/%FF%FE.jpg", b"/shots/", b"/shots/x.jpg%00.png", b"/../../etc/passwd"):
            reply = exchange(port, b"GET " + path + b" HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n")
            check(status(reply) == 404 and b"root:" not in reply, "GET %s: 404" % path.decode())
        reply = exchange(port, b"GET /api/state HTTP/1.1\r\n" + host + b"X-Long: " + b"a" * 100000 + b"\r\n\r\n")
        check(status(reply) in (413, 431) or reply == b"", "100 KB of headers: refused (%s)" % status(reply))
        reply = exchange(port, b"\xff\xfe\xfd GARBAGE\r\n\r\n")
        check(status(reply) in (400, None), "garbage instead of a request line: 400 or closed (%s)" % status(reply))
        # Requests a proxy in front could read another way (request smuggling): 400, the body unread.
        smuggled = b"GET /api/state HTTP/1.1\r\n" + host + b"Content-Length: 0\r\nContent-Length: 30\r\n\r\n"
        reply = exchange(port, smuggled + b"GET /api/state HTTP/1.1\r\n" + host + b"\r\n")
        check(status(reply) == 400 and b"2 Content-Length headers" in reply, "two Content-Lengths: 400 (%s)" % reply[:200])
        reply = post(b"/api/style", b'{"style": "minimal"}', extra=b"Transfer-Encoding: chunked\r\n")
        check(status(reply) == 400 and b"both Content-Length and Transfer-Encoding" in reply,
              "Content-Length with chunked: 400 (%s)" % reply[:200])
        # A proxy may route by the first Host; the server must not answer by the last.
        reply = exchange(port, b"GET /api/state HTTP/1.1\r\nHost: evil.example\r\n" + host + b"Connection: close\r\n\r\n")
        check(status(reply) == 400 and b"2 Host headers" in reply, "two Host headers: 400 (%s)" % reply[:200])
        # A slow client holds its connection, and only that: another request is answered while the
        # slow one is still open and unanswered (not after the server gave up on it).
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(b"GET /api/state HTTP/1.1\r\n")
        state = json.loads(server.get("/api/state")[1])
        check(state["phase"] == "viewfinder" and still_waiting(slow), "a slow client does not hold up the others")
        slow.close()
        check(server.process.poll() is None, "the server is still running")
    finally:
        server.stop()


if __name__ == "__main__":
    main(sys.argv[1])
