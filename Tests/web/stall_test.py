"""A client that stops reading the live picture stalls neither the camera nor the other
clients: with three such clients connected (tiny receive buffers, never read) and the server's
sends to them blocked, a fourth one still gets frame after frame; clients that vanish mid-frame
change nothing either. (The frame rate is printed; `make bench-web` measures it.)"""
import socket
import sys
import time

from serve import FAILSAFE, Server, check, wait_until


def open_stream(port, receive_buffer=None):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /stream.mjpg HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
    return sock


def read_frames(port, count=None, seconds=None):
    """Reads the stream until `count` JPEG parts have arrived after the first (or for `seconds`,
    for the benchmark); returns (parts, frames a second)."""
    sock = open_stream(port)
    sock.settimeout(FAILSAFE)
    data = b""
    parts, start = 0, None
    while True:
        chunk = sock.recv(1 << 16)
        if not chunk:
            break
        data += chunk
        while True:
            marker = data.find(b"Content-Type: image/jpeg")
            if marker < 0:
                break
            data = data[marker + 10:]
            parts += 1
            if start is None:
                start, parts = time.monotonic(), 0
        if start and (count is not None and parts >= count or seconds is not None and time.monotonic() - start >= seconds):
            break
    sock.close()
    return parts, parts / max(time.monotonic() - start, 1e-9) if start else 0.0


def frames_per_second(port, seconds):
    return read_frames(port, seconds=seconds)[1]


def send_queue(server_port, client):
    """Bytes the server has queued for `client` and not got rid of (the server side's tx_queue in
    /proc/net/tcp): above 0 on loopback only when the client's receive window is full."""
    client_port = client.getsockname()[1]
    with open("/proc/net/tcp") as table:
        for row in table.readlines()[1:]:
            fields = row.split()
            local, remote = int(fields[1].split(":")[1], 16), int(fields[2].split(":")[1], 16)
            if local == server_port and remote == client_port:
                return int(fields[4].split(":")[0], 16)
    return 0


def received_part(sock, marker):
    """Reads what the server sent until `marker` has come (a frame's or an event's header)."""
    sock.settimeout(FAILSAFE)
    data = b""
    while marker not in data:
        chunk = sock.recv(1 << 16)
        if not chunk:
            return False
        data += chunk
    return True


def main(binary):
    server = Server(binary, keep_original=False)
    try:
        parts, alone = read_frames(server.port, count=30)
        print("one client alone: %.1f frames/s" % alone)
        stalled = [open_stream(server.port, receive_buffer=4096) for _ in range(3)]
        wait_until(lambda: all(send_queue(server.port, sock) > 0 for sock in stalled),
                   "the stalled clients' buffers to fill (the server can no longer write to them)")
        for _ in range(3):  # clients that vanish in the middle of a frame
            sock = open_stream(server.port)
            sock.recv(5000)
            sock.close()
        parts, rate = read_frames(server.port, count=30)
        check(parts >= 30 and all(send_queue(server.port, sock) > 0 for sock in stalled),
              "with 3 stalled and 3 vanished clients, another one gets frame after frame (%d at %.1f frames/s)" % (parts, rate))
        status, _ = server.get("/api/state")
        check(status == 200, "the API still answers")
        shot = server.post("/api/shutter", client="stall-test-client")[0]
        check(shot == 200, "the camera still takes photos")
        server.wait_for(lambda s: s["phase"] == "reviewing", "the review")
        for sock in stalled:
            sock.close()
        # Under review nothing new comes: the picture and event streams wait (parked) when the
        # server is told to stop; it must end them and exit 0, not hang or crash.
        picture = open_stream(server.port)
        events = socket.create_connection(("127.0.0.1", server.port))
        events.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % server.port)
        check(received_part(picture, b"Content-Type: image/jpeg") and received_part(events, b"event: state"),
              "the streams get the photo under review and the state, then wait")
        waiting = [picture, events]
        start = time.monotonic()
        server.stop()
        check(True, "SIGTERM with parked streams: exit 0 (in %.1f s)" % (time.monotonic() - start))
        for sock in waiting:
            ended = False
            try:
                while sock.recv(1 << 16):
                    pass
                ended = True
            except (ConnectionResetError, socket.timeout):
                ended = False
            check(ended, "a waiting stream is ended cleanly by the stop")
            sock.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main(sys.argv[1])
