"""The team server under load: 20 phones sending a 5 MB photo each at once (`review=0`, stamped
at full size in place, as `--max-size 0`). Prints the uploads per second and the server's peak
resident memory (VmHWM), which must stay within 300 MB: photos are streamed to disk, and only a
core's worth are stamped at a time."""
import sys
import threading
import time

from serve import Server, check
from uploads import form, picture, request, team_add

PHONES = 20
LIMIT_MB = 300


def peak_rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0


def main(binary):
    tokens = []
    server = Server(binary, "--team", "--max-size", "0", keep_original=False,
                    before=lambda env: tokens.extend(team_add(binary, env, "Phone %02d" % i) for i in range(PHONES)))
    try:
        photo = picture(2300, 1600, seed=7, quality=97)  # about 5 MB: noise keeps it large
        body = form(photo, review="0")
        before = peak_rss_mb(server.process.pid)
        results = [None] * PHONES

        def send(index):
            results[index] = request(server.port, body, token=tokens[index], timeout=300, source="127.0.0.%d" % (index + 2))[0]
        threads = [threading.Thread(target=send, args=(i,)) for i in range(PHONES)]
        start = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.monotonic() - start
        peak = peak_rss_mb(server.process.pid)
        check(results == [200] * PHONES, "every upload saved (%s)" % results)
        print("%d uploads of %.1f MB at once: %.2f uploads/s (%.1f s), peak RSS %.0f MB (%.0f MB before)"
              % (PHONES, len(photo) / 1e6, PHONES / seconds, seconds, peak, before))
        check(peak <= LIMIT_MB, "peak RSS within %d MB" % LIMIT_MB)
        server.stop()
    finally:
        server.stop(check=False)


if __name__ == "__main__":
    main(sys.argv[1])
