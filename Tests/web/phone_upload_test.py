"""A team member's phone in Chromium, over HTTPS with the certificate `serve --tls` made: portrait
and landscape phone screens, a fake camera (`--use-fake-device-for-media-stream`), the position
set through DevTools, a photo taken through the page's file input, the stamped photo under review,
Use, and the photo in the shots strip and on disk with the person's name and the position.
Screenshots go to .build/web/."""
import os
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from serve import FAILSAFE, Server, check
from stamptest import free_port
from uploads import picture, team_add

BINARY = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else ".build/web"
PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
WHERE = {"latitude": 48.8584, "longitude": 2.2945, "accuracy": 8}


def phone(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--lang=en-US",
                 "--window-size=%d,%d" % (width, height), "--ignore-certificate-errors",
                 "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"profile.default_content_setting_values.geolocation": 1})
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": width, "height": height, "pixelRatio": 1, "touch": True}, "userAgent": PHONE})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def take(driver, server, token, photo, shot):
    """Opens the person's link, takes `photo` through the file input, uses it; the saved name."""
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.base.rstrip("/"), "permissions": ["geolocation"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", WHERE)
    driver.get(server.base + "?token=" + token)
    wait = WebDriverWait(driver, FAILSAFE, poll_frequency=0.05)
    wait.until(lambda d: d.execute_script("return window.isSecureContext && document.readyState === 'complete'"))
    # The page watches the position from the start. Headless Chromium may ignore the override
    # (known upstream): then the photo goes without a position, and the test says so.
    located = driver.execute_script(
        "return new Promise((done) => navigator.geolocation.getCurrentPosition(() => done(true), () => done(false), {timeout: 5000}))")
    if not located:
        print("note: this Chromium gives no position from the DevTools override; the upload goes without one")
    field = driver.find_element(By.ID, "photo-input")
    driver.execute_script("arguments[0].hidden = false", field)  # what the phone's camera would hand over
    field.send_keys(photo)
    wait.until(lambda d: not d.find_element(By.ID, "upload").get_attribute("hidden")
               and d.find_element(By.ID, "upload-use").is_enabled()
               and d.execute_script("return document.getElementById('upload-picture').naturalWidth") > 0)
    check("Ana Lima" in driver.find_element(By.ID, "upload-status").text,
          "the review shows the stamped photo and who it is for (%s)" % driver.find_element(By.ID, "upload-status").text)
    driver.save_screenshot(os.path.join(OUT, shot + "-review.png"))
    before = len(driver.find_elements(By.CSS_SELECTOR, "#shots img"))
    driver.find_element(By.ID, "upload-use").click()
    wait.until(lambda d: d.find_element(By.ID, "upload").get_attribute("hidden") is not None)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#shots img")) == before + 1)
    driver.save_screenshot(os.path.join(OUT, shot + ".png"))
    # A thumbnail opens the photo in the page's viewer, not a download.
    driver.execute_script("document.querySelector('#shots a').click()")
    wait.until(lambda d: d.find_element(By.ID, "viewer").get_attribute("hidden") is None
               and d.execute_script("return document.getElementById('viewer-picture').naturalWidth") > 0)
    check(driver.current_url.startswith(server.base), "the thumbnail opens the viewer in the page")
    driver.save_screenshot(os.path.join(OUT, shot + "-viewer.png"))
    driver.find_element(By.ID, "viewer-close").click()
    wait.until(lambda d: d.find_element(By.ID, "viewer").get_attribute("hidden") is not None)

    # The live camera (HTTPS only): the fake camera's picture with the stamp's words over it; its shutter sends a frame.
    driver.find_element(By.ID, "live-camera").click()
    wait.until(lambda d: d.execute_script("return document.getElementById('live-video').videoWidth") > 0)
    wait.until(lambda d: "Ana Lima" in d.find_element(By.ID, "live-stamp").text)
    driver.save_screenshot(os.path.join(OUT, shot + "-live.png"))
    driver.find_element(By.ID, "live-shutter").click()
    wait.until(lambda d: not d.find_element(By.ID, "upload").get_attribute("hidden")
               and d.find_element(By.ID, "upload-use").is_enabled())
    driver.find_element(By.ID, "upload-use").click()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#shots img")) == before + 2)
    check(True, "a frame of the live camera is sent, stamped, reviewed and used")
    return located


def main():
    os.makedirs(OUT, exist_ok=True)
    tokens = {}
    server = Server(BINARY, "--tls", "--team", "--max-size", "0", keep_original=False,
                    before=lambda env: tokens.update(Ana=team_add(BINARY, env, "Ana Lima", "--lock", "user")))
    folder = tempfile.mkdtemp(prefix="stampcam-phone-")
    photo = os.path.join(folder, "IMG_0001.jpg")
    with open(photo, "wb") as f:
        f.write(picture(1200, 900, seed=5))
    try:
        located = []
        for width, height, shot in ((412, 915, "phone-upload-portrait"), (915, 412, "phone-upload-landscape")):
            driver = phone(width, height)
            try:
                located.append(take(driver, server, tokens["Ana"], photo, shot))
            finally:
                driver.quit()
        check(len(server.photo_files()) == 4, "four photos saved (%s)" % server.photo_files())
        out = subprocess.run([BINARY, "log", "--json"], env=server.env, capture_output=True, text=True).stdout
        check(out.count('"Ana Lima"') == 4, "logged with the person's name")
        if any(located):
            check("48.858" in out, "logged with the phone's position")
        server.stop()
    finally:
        server.stop(check=False)
    offline(photo)


def offline(photo):
    """The server goes away; a photo taken meanwhile waits on the phone and is sent, marked with
    the phone's time, once a server answers at the same address again."""
    port = free_port()
    tokens = {}
    first = Server(BINARY, "--tls", "--team", keep_original=False, listen="127.0.0.1:%d" % port,
                   before=lambda env: tokens.update(Ana=team_add(BINARY, env, "Ana Lima")))
    second = None
    driver = phone(412, 915)
    try:
        wait = WebDriverWait(driver, FAILSAFE, poll_frequency=0.05)
        driver.get(first.base + "?token=" + tokens["Ana"])
        check(driver.execute_script("return navigator.serviceWorker.ready.then(() => true)"), "the service worker is installed")
        first.stop()
        field = driver.find_element(By.ID, "photo-input")
        driver.execute_script("arguments[0].hidden = false", field)
        field.send_keys(photo)
        wait.until(lambda d: not d.find_element(By.ID, "queued").get_attribute("hidden"))
        check("1 photo waits" in driver.find_element(By.ID, "queued").text, "out of reach, the photo waits on the phone")
        driver.save_screenshot(os.path.join(OUT, "phone-upload-queued.png"))
        second = Server(BINARY, "--tls", "--team", keep_original=False, listen="127.0.0.1:%d" % port, photos=first.photos,
                        before=lambda env: env.update(first.env))
        wait.until(lambda d: d.find_element(By.ID, "queued").get_attribute("hidden") is not None)
        check(len(second.photo_files()) == 1, "once the server answers, the kept photo is sent and saved (%s)" % second.photo_files())
        out = subprocess.run([BINARY, "log", "--json"], env=second.env, capture_output=True, text=True).stdout
        check('"Ana Lima"' in out, "with the person's name")
        with open(os.path.join(second.photos, second.photo_files()[0]), "rb") as f:
            check(b"phone_time" in f.read(), "and the phone's time in its record (XMP), beside the server's")
        second.stop()
    finally:
        driver.quit()
        first.stop(check=False)
        if second:
            second.stop(check=False)


if __name__ == "__main__":
    main()
