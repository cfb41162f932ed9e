"""The web path's speed: the live picture's frame rate as a browser receives it (960 px from the
test source, the stamp drawn on each frame), and the time from pressing the shutter to the photo
under review and from Use to "Saved" (the stamp, encode and atomic write of the full photo)."""
import statistics
import sys
import time

from serve import Server
from stall_test import frames_per_second


def main(binary):
    server = Server(binary, keep_original=False)
    try:
        rate = frames_per_second(server.port, 10)
        size = server.state()["camera"]
        print("web preview: %.1f frames/s at 960 px from the %dx%d test source (measured at the client over 10 s)"
              % (rate, size["width"], size["height"]))
        review, save = [], []
        client = "bench-client-01"
        for _ in range(5):
            start = time.time()
            server.post("/api/shutter", client=client)
            server.wait_for(lambda s: s["phase"] == "reviewing", "the review")
            taken = time.time()
            server.post("/api/use", client=client)
            server.wait_for(lambda s: s["phase"] == "saved", "the save")
            done = time.time()
            review.append(taken - start)
            save.append(done - taken)
        print("web shutter → review: median %.0f ms; use → saved: median %.0f ms; shutter → saved: %.0f ms (5 photos, %dx%d)"
              % (1000 * statistics.median(review), 1000 * statistics.median(save),
                 1000 * (statistics.median(review) + statistics.median(save)), size["width"], size["height"]))
    finally:
        server.stop()


if __name__ == "__main__":
    main(sys.argv[1])
