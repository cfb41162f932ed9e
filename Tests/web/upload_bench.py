"""The team server under load: 50 phones sending a 5 MB, 12-megapixel photo each at once
(`review=0`, stamped at full size in place, as `--max-size 0`), each from its own address. Prints
the uploads per second, the server's peak resident memory (VmHWM), which must stay within 300 MB
(the photos wait in temp files; a few workers read and stamp them), and its resident memory once
idle again, which must give back what the photos took (what stays is mostly each worker's fonts)."""
import sys
import threading
import time

from serve import Server, check, wait_until
from uploads import form, picture, request, team_add

PHONES = 50
LIMIT_MB = 300


def memory_mb(pid, field):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0


def main(binary):
    tokens = []
    server = Server(binary, "--team", "--max-size", "0", keep_original=False,
                    before=lambda env: tokens.extend(team_add(binary, env, "Phone %02d" % i) for i in range(PHONES)))
    try:
        # 4000x3000 at quality 55: a phone's 12 megapixels, its noise keeping it about 5 MB.
        photo = picture(4000, 3000, seed=7, quality=55)
        body = form(photo, review="0")
        pid = server.process.pid
        before = memory_mb(pid, "VmHWM")
        results = [None] * PHONES

        def send(index):
            results[index] = request(server.port, body, token=tokens[index], timeout=600, source="127.0.0.%d" % (index + 2))[0]
        threads = [threading.Thread(target=send, args=(i,)) for i in range(PHONES)]
        start = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.monotonic() - start
        peak = memory_mb(pid, "VmHWM")
        check(results == [200] * PHONES, "every upload saved (%s)" % results)
        check(len(server.photo_files()) == PHONES, "%d photos in the folder" % PHONES)
        # Idle: the workers have given back what the photos took (seen in VmRSS, never waited for
        # by time); what stays is mostly each worker's fonts, made once: at least a third of what
        # the load added must go.
        fallen = peak - (peak - before) / 3
        idle = wait_until(lambda: memory_mb(pid, "VmRSS") if memory_mb(pid, "VmRSS") <= fallen else None,
                          "the server's memory to fall back once idle (to %.0f MB or less)" % fallen)
        print("%d uploads of %.1f MB (%d x %d) at once: %.2f uploads/s (%.1f s), peak RSS %.0f MB, idle RSS after %.0f MB"
              " (%.0f MB before)" % (PHONES, len(photo) / 1e6, 4000, 3000, PHONES / seconds, seconds, peak, idle, before))
        check(peak <= LIMIT_MB, "peak RSS within %d MB" % LIMIT_MB)
        server.stop()
    finally:
        server.stop(check=False)


if __name__ == "__main__":
    main(sys.argv[1])
