"""Two people shoot with their own phones at once, in Chromium over HTTPS, the installation's CA
trusted through an NSS database (no certificate error is ignored): `serve --tls --team` with no
camera of its own, each phone its fake camera (`--use-fake-device-for-media-stream`).

Each phone sees only its own values; the stamp over the live picture is the style's (drawn, and
changed by a style change); the shutter sends the frame at full size, the review shows it stamped,
a style change restamps it, Use saves it with that person's name and the server's time (exiftool);
nothing on the page is outside the screen at 360x640, 390x844 and landscape (bounding boxes); a
photo taken offline (DevTools network emulation) waits on the phone and is sent when the network
is back, marked as taken offline; a gallery pick is recorded as opened, a shutter photo as
captured. Screenshots go to .build/web/ (phone-*.png)."""
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from serve import FAILSAFE, Server, check, wait_until
from uploads import picture, team_add

BINARY = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else ".build/web"
PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
SIZES = ((360, 640, "360x640"), (390, 844, "390x844"), (844, 390, "landscape"))


def trusting_home(ca_pem):
    """A home for Chromium whose NSS database trusts the installation's CA."""
    home = tempfile.mkdtemp(prefix="stampcam-chromium-")
    nssdb = os.path.join(home, ".pki", "nssdb")
    os.makedirs(nssdb)
    subprocess.run(["certutil", "-d", "sql:" + nssdb, "-N", "--empty-password"], check=True)
    subprocess.run(["certutil", "-d", "sql:" + nssdb, "-A", "-t", "C,,", "-n", "stampcam-ca", "-i", ca_pem], check=True)
    return home


def phone(home, width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--lang=en-US",
                 "--window-size=%d,%d" % (width, height), "--user-data-dir=" + tempfile.mkdtemp(dir=home),
                 "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"):
        options.add_argument(flag)
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": width, "height": height, "pixelRatio": 1, "touch": True}, "userAgent": PHONE})
    env = dict(os.environ, HOME=home)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver", env=env), options=options)


def resize(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})


def wait(driver):
    return WebDriverWait(driver, FAILSAFE, poll_frequency=0.05)


def mode(driver):
    return driver.execute_script("return document.getElementById('app').dataset.mode")


def open_link(driver, server, token):
    driver.get(server.base + "?token=" + token)
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
    check(driver.execute_script("return window.isSecureContext"), "the page is a secure context")
    check(driver.execute_script("return navigator.serviceWorker.ready.then(() => true)"),
          "the service worker is installed: the certificate is trusted (the CA in the NSS database), no error ignored")
    wait(driver).until(lambda d: mode(d) == "live" and d.execute_script("return document.getElementById('video').videoWidth") > 0)
    wait_overlay(driver)


def overlay_pixels(driver):
    """How many pixels of the overlay are drawn (not transparent), and a digest of them."""
    return driver.execute_script("""
        const image = document.getElementById('overlay');
        if (!image.naturalWidth || image.hidden) return null;
        const canvas = document.createElement('canvas');
        canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
        const context = canvas.getContext('2d');
        context.drawImage(image, 0, 0);
        const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
        let drawn = 0, digest = 0;
        for (let i = 3; i < data.length; i += 4) {
            if (data[i] > 0) { drawn++; digest = (digest * 31 + data[i] + data[i - 1] * 7 + (i >> 2)) % 1000000007; }
        }
        return [drawn, digest, canvas.width * canvas.height, image.src];
    """)


def wait_overlay(driver, other_than=None):
    def ready(d):
        pixels = overlay_pixels(d)
        if not pixels or pixels[0] == 0 or (other_than and pixels[3] == other_than[3]):
            return None
        return pixels
    return wait(driver).until(ready)


def outside(driver):
    """Visible elements not wholly on the screen (a scrolling sheet's insides are its own)."""
    return driver.execute_script("""
        const width = window.innerWidth, height = window.innerHeight, found = [];
        for (const element of document.querySelectorAll('body *')) {
            if (element.closest('[hidden]') || element.closest('.sheet') && !element.classList.contains('sheet')) continue;
            const style = getComputedStyle(element);
            if (style.display === 'none' || style.visibility === 'hidden') continue;
            const box = element.getBoundingClientRect();
            if (box.width === 0 || box.height === 0) continue;
            if (box.left < -0.5 || box.top < -0.5 || box.right > width + 0.5 || box.bottom > height + 0.5) {
                found.push((element.id || element.tagName) + ' ' + [box.left, box.top, box.right, box.bottom].map(Math.round).join(','));
            }
        }
        return found;
    """)


def check_layout(driver, name, what):
    check(not outside(driver), "%s, %s: every element on the screen (%s)" % (name, what, outside(driver)))
    driver.save_screenshot(os.path.join(OUT, "phone-%s-%s.png" % (name, what)))


def me(driver):
    return driver.execute_script("""return fetch('/api/me', {credentials: 'same-origin'}).then(r => r.json())""")


def set_note(driver, text):
    driver.find_element(By.ID, "fields-button").click()
    field = driver.find_element(By.ID, "field-note")
    field.clear()
    field.send_keys(text)
    driver.find_element(By.ID, "fields-done").click()
    wait(driver).until(lambda d: me(d).get("note") == text)


def shutter(driver):
    driver.find_element(By.ID, "shutter").click()


def wait_review(driver):
    wait(driver).until(lambda d: mode(d) == "review" and "/uploads/" in d.find_element(By.ID, "review-picture").get_attribute("src")
                       and d.execute_script("return document.getElementById('review-picture').naturalWidth") > 0)


def photos(server):
    return [os.path.join(server.photos, name) for name in server.photo_files()]


def exif(path, *tags):
    out = subprocess.run(["exiftool", "-j", "-n"] + ["-" + t for t in tags] + [path], capture_output=True, text=True, check=True).stdout
    return json.loads(out)[0]


def main():
    os.makedirs(OUT, exist_ok=True)
    tokens = {}

    def team(env):
        tokens["Ana"] = team_add(BINARY, env, "Ana Lima", "--project", "Bridge 7", "--project", "Tunnel 3")
        tokens["Ben"] = team_add(BINARY, env, "Ben Okafor", "--project", "Depot")
    server = Server(BINARY, "--tls", "--team", keep_original=False, device=None, before=team)
    homes = []
    drivers = []
    try:
        wait_until(lambda: "no camera of its own" in server.stderr(), "serve --team says it opens no camera without --device")
        ca = os.path.join(server.env["XDG_DATA_HOME"], "stampcam", "keys", "ca.pem")
        home = trusting_home(ca)
        homes.append(home)
        ana = phone(home, 390, 844)
        drivers.append(ana)
        ben = phone(home, 360, 640)
        drivers.append(ben)
        open_link(ana, server, tokens["Ana"])
        open_link(ben, server, tokens["Ben"])
        check("Ana Lima" in ana.find_element(By.ID, "whose").text and "Ben Okafor" in ben.find_element(By.ID, "whose").text,
              "each page says whose camera it is (%r, %r)" % (ana.find_element(By.ID, "whose").text, ben.find_element(By.ID, "whose").text))

        # The page's words in the phone's language, the new ones too.
        german = ana.execute_script("return fetch('/api/words?lang=de-DE').then(r => r.json())")
        check(german["words"].get("gallery") == "Galerie" and "{name}" in german["words"].get("camera-of", ""),
              "the phone page's words in German (%s)" % german["words"].get("gallery"))

        # Each phone's values are its own.
        set_note(ana, "north pier")
        set_note(ben, "depot gate")
        check(me(ana)["note"] == "north pier" and me(ben)["note"] == "depot gate", "each phone keeps its own note")
        check(me(ana)["projects"] == ["Bridge 7", "Tunnel 3"] and me(ben)["project"] == "Depot",
              "each person picks from their own projects (%s, %s)" % (me(ana)["projects"], me(ben)["project"]))
        ana.find_element(By.ID, "fields-button").click()
        check(ana.find_element(By.ID, "field-project-list").is_displayed(), "several projects: a list to pick from")
        check(ana.find_element(By.ID, "field-user").get_attribute("readonly") is not None, "the name is the link's, locked")
        check_layout(ana, "390x844", "fields")
        ana.find_element(By.ID, "fields-done").click()

        # The stamp over the live picture: drawn, and another style draws another one.
        first = wait_overlay(ana)
        check(first[0] > 200, "the overlay draws the stamp (%d pixels)" % first[0])
        style = me(ana)["style"]["id"]
        ana.find_element(By.ID, "style-next").click()
        wait(ana).until(lambda d: me(d)["style"]["id"] != style)
        second = wait_overlay(ana, other_than=first)
        check(second[1] != first[1], "another style, another overlay")
        check(me(ben)["style"]["id"] == style, "Ben's style did not change with Ana's")
        ana.find_element(By.ID, "style-prev").click()
        wait(ana).until(lambda d: me(d)["style"]["id"] == style)

        for driver, (width, height, name) in ((ben, SIZES[0]), (ana, SIZES[1])):
            check_layout(driver, name, "live")

        # Both shoot at once; Ana changes the style during her review; both use their photos.
        started = datetime.datetime.now(datetime.timezone.utc)
        sizes = {}
        for driver in (ana, ben):
            driver.execute_script("""
                const original = window.fetch;
                window.fetch = function (url, options) {
                    if (url === '/api/photos' && options && options.body instanceof FormData) {
                        createImageBitmap(options.body.get('photo')).then((b) => { window.sentSize = [b.width, b.height]; });
                    }
                    return original.apply(this, arguments);
                };""")
        shutter(ana)
        shutter(ben)
        wait_review(ana)
        wait_review(ben)
        for driver, (width, height, name) in ((ben, SIZES[0]), (ana, SIZES[1])):
            check_layout(driver, name, "review")
        before = ana.find_element(By.ID, "review-picture").get_attribute("src")
        ana.find_element(By.ID, "style-next").click()
        wait(ana).until(lambda d: mode(d) == "review" and d.find_element(By.ID, "review-picture").get_attribute("src") != before)
        wait_review(ana)
        check(me(ana)["style"]["id"] != style, "the style changed during the review restamps the same shot")
        for driver, who in ((ana, "Ana"), (ben, "Ben")):
            sizes[who] = driver.execute_script("return window.sentSize")
            driver.find_element(By.ID, "use").click()
            wait(driver).until(lambda d: mode(d) == "live" and not d.find_element(By.ID, "last").get_attribute("hidden"))
        ended = datetime.datetime.now(datetime.timezone.utc)
        saved = photos(server)
        check(len(saved) == 2, "two photos saved (%s)" % saved)
        for path in saved:
            tags = exif(path, "XMP:Creator", "Artist", "ImageWidth", "ImageHeight", "XMP:DateCreated")
            creator = tags.get("Creator") or tags.get("Artist")
            who = "Ana" if "Ana Lima" in str(creator) else "Ben"
            check(str(creator) in ("Ana Lima", "['Ana Lima']", "Ben Okafor", "['Ben Okafor']"), "stamped with the person's name (%s)" % creator)
            check([tags["ImageWidth"], tags["ImageHeight"]] == sizes[who],
                  "%s's photo at full size: %sx%s as the phone sent it (%s)" % (who, tags["ImageWidth"], tags["ImageHeight"], sizes[who]))
            text = str(tags["DateCreated"])  # exiftool's "2026:12:05 00:23:40+00:00"
            created = datetime.datetime.fromisoformat(text[:10].replace(":", "-") + "T" + text[11:].replace("Z", "+00:00"))
            check(created.tzinfo is not None and started - datetime.timedelta(seconds=2) <= created <= ended + datetime.timedelta(seconds=2),
                  "the time is the server's clock, with its zone (%s)" % tags["DateCreated"])
            with open(path, "rb") as f:
                data = f.read()
            check(b"c2pa.created" in data and b"digitalCapture" in data and b"c2pa.opened" not in data,
                  "a photo of the page's shutter is recorded as a capture")
        verified = subprocess.run([BINARY, "verify", "--json"] + saved, env=server.env, capture_output=True, text=True).stdout
        check(verified.count('"signatureValid":true') == 2 or verified.count('"signatureValid": true') == 2,
              "both photos' credentials verify (%s)" % verified[:300])

        # Landscape: the same page, nothing off the screen, live and in review.
        resize(ben, 844, 390)
        wait(ben).until(lambda d: d.execute_script("return innerWidth") == 844)
        wait_overlay(ben)
        check_layout(ben, "landscape", "live")
        shutter(ben)
        wait_review(ben)
        check_layout(ben, "landscape", "review")
        ben.find_element(By.ID, "retake").click()
        wait(ben).until(lambda d: mode(d) == "live")
        ben.find_element(By.ID, "fields-button").click()
        check_layout(ben, "landscape", "fields")
        ben.find_element(By.ID, "fields-done").click()

        # Offline: the photo waits on the phone, then goes, marked as taken offline.
        ana.execute_cdp_cmd("Network.enable", {})
        ana.execute_cdp_cmd("Network.emulateNetworkConditions",
                            {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        shutter(ana)
        wait(ana).until(lambda d: not d.find_element(By.ID, "queued").get_attribute("hidden"))
        check("1 photo waits" in ana.find_element(By.ID, "queued").text, "offline, the photo waits on the phone")
        ana.save_screenshot(os.path.join(OUT, "phone-390x844-queued.png"))
        count = len(photos(server))
        ana.execute_cdp_cmd("Network.emulateNetworkConditions",
                            {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        wait(ana).until(lambda d: d.find_element(By.ID, "queued").get_attribute("hidden") is not None)
        check(len(photos(server)) == count + 1, "back online, the kept photo is sent and saved")
        newest = max(photos(server), key=os.path.getmtime)
        with open(newest, "rb") as f:
            check(b"taken offline at" in f.read(), "marked as taken offline, with the time it was received")

        # A gallery pick: recorded as opened, its own EXIF time kept as the phone's.
        folder = tempfile.mkdtemp(prefix="stampcam-gallery-")
        old = os.path.join(folder, "IMG_0042.jpg")
        with open(old, "wb") as f:
            f.write(picture(1600, 1200, seed=9))
        subprocess.run(["exiftool", "-q", "-overwrite_original", "-DateTimeOriginal=2026:11:20 09:15:00", old], check=True)
        field = ana.find_element(By.ID, "gallery-input")
        ana.execute_script("arguments[0].hidden = false", field)
        field.send_keys(old)
        wait_review(ana)
        check("sent from the phone" in ana.find_element(By.ID, "status").text, "the review says the photo came from the phone")
        ana.find_element(By.ID, "use").click()
        wait(ana).until(lambda d: mode(d) == "live")
        newest = max(photos(server), key=os.path.getmtime)
        with open(newest, "rb") as f:
            data = f.read()
        check(b"c2pa.opened" in data and b"digitalCapture" not in data, "a gallery pick is recorded as opened, not captured")
        check(b"2026-11-20T09:15:00" in data, "its own EXIF time is kept as the phone's time")
        check([exif(newest, "ImageWidth")["ImageWidth"]] == [1600], "at its own size")
        server.stop()
        out = server.stderr()
        check(out.count("photo from Ana Lima") == 3 and out.count("photo from Ben Okafor") == 1,
              "one line per photo received, naming the person:\n" + out)
        check("4 photos saved" in out, "the summary counts the phones' photos")
        plain_http(home)
    finally:
        for driver in drivers:
            driver.quit()
        server.stop(check=False)
        for home in homes:
            shutil.rmtree(home, ignore_errors=True)


def plain_http(home):
    """Over plain HTTP (not a secure context: no live camera in the page) the shutter is the phone's
    own camera app, through the file input; the stamp is still drawn over the frame."""
    tokens = {}
    server = Server(BINARY, "--team", keep_original=False, device=None, listen="0.0.0.0:0",
                    before=lambda env: tokens.update(Ana=team_add(BINARY, env, "Ana Lima")))
    driver = None
    try:
        if server.base.startswith("http://127."):
            print("note: this machine has no address but loopback, which browsers treat as secure: the plain-HTTP page is not tried")
            server.stop()
            return
        driver = phone(home, 360, 640)
        driver.get(server.base + "?token=" + tokens["Ana"])
        wait(driver).until(lambda d: mode(d) == "nolive")
        check(not driver.execute_script("return window.isSecureContext"), "plain HTTP is not a secure context")
        check(driver.find_element(By.ID, "camera-app").is_displayed() and not driver.find_element(By.ID, "shutter").is_displayed(),
              "the shutter opens the phone's camera app")
        wait_overlay(driver)
        check_layout(driver, "360x640", "http")
        folder = tempfile.mkdtemp(prefix="stampcam-camera-app-")
        photo = os.path.join(folder, "IMG_20261205.jpg")
        with open(photo, "wb") as f:
            f.write(picture(1200, 1600, seed=4))
        field = driver.find_element(By.ID, "camera-input")
        driver.execute_script("arguments[0].hidden = false", field)
        field.send_keys(photo)
        wait_review(driver)
        check_layout(driver, "360x640", "http-review")
        driver.find_element(By.ID, "use").click()
        wait(driver).until(lambda d: mode(d) == "nolive")
        saved = photos(server)
        check(len(saved) == 1 and exif(saved[0], "ImageWidth")["ImageWidth"] == 1200, "the camera app's photo saved at its size")
        server.stop()
    finally:
        if driver:
            driver.quit()
        server.stop(check=False)


if __name__ == "__main__":
    main()
