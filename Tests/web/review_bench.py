"""A phone's shutter to its stamped review, on loopback: a 12 MP photo (4000x3000 JPEG) posted as
the page's shutter sends it (`kind=shutter`), stamped at full size by a team server without a
camera of its own, and the stamped picture fetched at a phone screen's size (`/uploads/ID?fit=1280`),
as the page shows it; then Retake. Prints the median of several rounds in milliseconds."""
import statistics
import sys
import time
import urllib.request

from serve import Server, check
from uploads import form, picture, request, team_add

ROUNDS = 7


def main(binary):
    tokens = []
    server = Server(binary, "--team", keep_original=False, device=None,
                    before=lambda env: tokens.append(team_add(binary, env, "Ana Lima")))
    try:
        photo = picture(4000, 3000, seed=3, quality=92)
        body = form(photo, kind="shutter")
        times = []
        for _ in range(ROUNDS):
            start = time.monotonic()
            status, answer = request(server.port, body, token=tokens[0], timeout=300)
            check(status == 200, "stamped for review (%s %s)" % (status, answer if status != 200 else ""))
            preview = urllib.request.Request(server.base.rstrip("/") + answer["preview"] + "?fit=1280",
                                             headers={"Authorization": "Bearer " + tokens[0]})
            with urllib.request.urlopen(preview, timeout=300) as response:
                screen = response.read()
            times.append((time.monotonic() - start) * 1000)
            check(screen[:2] == b"\xff\xd8", "the review is a JPEG")
            retake = urllib.request.Request(server.base.rstrip("/") + "/api/photos/retake", data=b'{"id": "%s"}' % answer["id"].encode(),
                                            headers={"Authorization": "Bearer " + tokens[0], "Content-Type": "application/json"})
            urllib.request.urlopen(retake, timeout=60).read()
        print("shutter -> stamped review of a 12 MP photo (%.1f MB) on loopback: median %.0f ms (%d rounds, %.0f-%.0f ms)"
              % (len(photo) / 1e6, statistics.median(times), ROUNDS, min(times), max(times)))
        server.stop()
    finally:
        server.stop(check=False)


if __name__ == "__main__":
    main(sys.argv[1])
