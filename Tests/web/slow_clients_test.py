"""Slow clients lock no one out: 64 connections from four addresses (as many as the server takes)
that each send a header line every poll interval and never finish their request are closed once
their time for a whole request is up, and a normal client from another address then gets its
answer; one address alone cannot take more than its share of connections."""
import socket
import sys
import threading
import time

from http_test import still_waiting
from serve import Server, check, wait_until

POLL = 0.5  # how often each slow client sends one more header line (far less than the idle limit)


class SlowClients:
    """Connections from `addresses` that send a request line, then one header line every POLL
    seconds, never the blank line that ends the head."""

    def __init__(self, port, addresses, per_address):
        self.sockets = []
        for address in addresses:
            for _ in range(per_address):
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.bind((address, 0))
                sock.connect(("127.0.0.1", port))
                sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port)
                self.sockets.append(sock)
        self.closed = set()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.trickle, daemon=True)
        self.thread.start()

    def trickle(self):
        while not self.stopped.wait(POLL):
            for index, sock in enumerate(self.sockets):
                if index in self.closed:
                    continue
                if not still_waiting(sock):
                    self.closed.add(index)
                    continue
                try:
                    sock.sendall(b"X-Slow: %d\r\n" % time.monotonic_ns())
                except OSError:
                    self.closed.add(index)

    def stop(self):
        self.stopped.set()
        self.thread.join()
        for sock in self.sockets:
            sock.close()


def answered(port, source):
    """One GET /api/state from `source`: the status, or None when the server did not answer
    (refused, reset, or no answer within a poll interval)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(POLL)
            sock.bind((source, 0))
            sock.connect(("127.0.0.1", port))
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port)
            reply = sock.recv(64)
            return int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/1.1 ") else None
    except (OSError, ValueError, IndexError):
        return None


def main(binary):
    server = Server(binary, keep_original=False)
    slow = None
    try:
        port = server.port
        # One address alone gets at most its share: of 17 connections from it one is closed at once
        # while 16 stay open, waiting for the rest of their requests. Which one is the server's
        # threads' choice: they accept at once, so not always the last one made.
        crowd = [socket.create_connection(("127.0.0.1", port)) for _ in range(17)]
        for sock in crowd:
            sock.sendall(b"GET /api/state HTTP/1.1\r\n")
        wait_until(lambda: not all(still_waiting(sock) for sock in crowd), "one of 17 connections from one address to be closed")
        open_ones = sum(1 for sock in crowd if still_waiting(sock))
        check(open_ones == 16, "one address holds at most 16 connections, and gets them (%d open)" % open_ones)
        for sock in crowd:
            sock.close()
        # Every connection the server takes, held by slow clients from four addresses.
        slow = SlowClients(port, ["127.0.0.%d" % n for n in range(11, 15)], per_address=16)
        wait_until(lambda: answered(port, "127.0.0.20") == 200, "a normal client's answer while slow clients hold every connection")
        check(True, "a normal client is answered although 64 slow clients kept sending")
        wait_until(lambda: len(slow.closed) == len(slow.sockets), "every slow client to be closed")
        check(True, "every slow client was closed by the server while it was still sending")
        check(server.process.poll() is None, "the server is still running")
    finally:
        if slow:
            slow.stop()
        server.stop()


if __name__ == "__main__":
    main(sys.argv[1])
