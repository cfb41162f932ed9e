"""The lead's page for a day of 500 photos (apply'd into the served catalog): how long from the
page's navigation to the first paint of the timeline (Chromium's performance API: the mark the page
sets once the frame after drawing the timeline is painted), at a laptop's and a phone's size, and
how long `/api/team/day` takes to answer for those 500."""
import os
import statistics
import sys
import time

from selenium.webdriver.support.ui import WebDriverWait

from lead_browser_test import browser
from lead_test import apply, fetch, make_photos
from serve import FAILSAFE, Server

COUNT = 500


def main(binary):
    server = Server(binary, keep_original=False)
    driver = None
    try:
        sources = make_photos(os.path.join(server.folder, "camera"), COUNT, size=(800, 600))
        apply(binary, server.env, sources, os.path.join(server.folder, "applied"), "--user", "Dana", "--project", "Bench")
        answers = []
        for _ in range(5):
            started = time.monotonic()
            status, _, _ = fetch("127.0.0.1", server.port, "/api/team/day")
            answers.append(time.monotonic() - started)
            assert status == 200
        print("lead page: /api/team/day for a day of %d photos answers in %.0f ms (median of 5)"
              % (COUNT, 1000 * statistics.median(answers)))
        for name, (width, height, phone) in {"laptop 1280x900": (1280, 900, False), "phone 390x844": (390, 844, True)}.items():
            driver = browser(width, height, server.folder, phone=phone)
            paints = []
            for _ in range(3):
                driver.get(server.base + "team")
                paint = WebDriverWait(driver, FAILSAFE, poll_frequency=0.02).until(lambda d: d.execute_script(
                    "const m = performance.getEntriesByName('timeline-painted'); return m.length ? m[0].startTime : null"))
                tiles = driver.execute_script("return document.querySelectorAll('#timeline .photo').length")
                assert tiles == COUNT, tiles
                paints.append(paint)
            driver.quit()
            driver = None
            print("lead page, %s: first paint of the timeline of %d photos %.0f ms after navigation (median of 3 loads)"
                  % (name, COUNT, statistics.median(paints)))
        server.stop()
    finally:
        if driver:
            driver.quit()
        server.stop(check=False)


if __name__ == "__main__":
    main(sys.argv[1])
