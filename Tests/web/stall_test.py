"""A client that stops reading the live picture stalls neither the camera nor the other
clients: with three such clients connected (tiny receive buffers, never read), a fourth one
still gets at least 5 frames a second; clients that vanish mid-frame change nothing either."""
import socket
import sys
import time

from serve import Server, check


def open_stream(port, receive_buffer=None):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /stream.mjpg HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
    return sock


def frames_per_second(port, seconds):
    """Reads the stream for `seconds` after the first frame; counts the JPEG parts that arrive."""
    sock = open_stream(port)
    sock.settimeout(10)
    data = b""
    count, start = 0, None
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
            count += 1
            if start is None:
                start, count = time.time(), 0
        if start and time.time() - start >= seconds:
            break
    sock.close()
    return count / (time.time() - start)


def main(binary):
    server = Server(binary, keep_original=False)
    try:
        alone = frames_per_second(server.port, 3)
        print("one client alone: %.1f frames/s" % alone)
        stalled = [open_stream(server.port, receive_buffer=4096) for _ in range(3)]
        time.sleep(2)  # their buffers fill; the server can no longer write to them
        for _ in range(3):  # clients that vanish in the middle of a frame
            sock = open_stream(server.port)
            sock.recv(5000)
            sock.close()
        rate = frames_per_second(server.port, 5)
        check(rate >= 5, "with 3 stalled and 3 vanished clients, another one gets %.1f frames/s (at least 5)" % rate)
        status, _ = server.get("/api/state")
        check(status == 200, "the API still answers")
        shot = server.post("/api/shutter", client="stall-test-client")[0]
        check(shot == 200, "the camera still takes photos")
        server.wait_for(lambda s: s["phase"] == "reviewing", "the review")
        for sock in stalled:
            sock.close()
        # Under review nothing new comes: the picture and event streams wait (parked) when the
        # server is told to stop; it must end them and exit 0, not hang or crash.
        waiting = [open_stream(server.port)]
        events = socket.create_connection(("127.0.0.1", server.port))
        events.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % server.port)
        waiting.append(events)
        time.sleep(1)
        for sock in waiting:
            sock.settimeout(10)
            sock.recv(1 << 20)  # what was there; then nothing more until the stop
        start = time.time()
        server.stop()
        check(time.time() - start < 5, "SIGTERM with parked streams: exit 0 in %.1f s" % (time.time() - start))
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
