"""The browser viewfinder in a real browser: Debian's Chromium driven by Selenium. Loads the page
of `stampcam serve --device test`, sees the live picture change, swipes to the next style,
shoots, retakes, shoots, goes back a style in review, uses the photo, and checks that exactly one
photo was saved whose sidecar names the style chosen, and that the page says "Saved"; a style
that drops given values says which. Also: a
second client cannot take a photo while the browser controls the camera, and the browser is
told so and can take over. Screenshots go to .build/web/ for people to look at."""
import hashlib
import json
import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from serve import FAILSAFE, Server, check

BINARY = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else ".build/web"


SERVER = None
PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"


def browser(width, height, phone=False):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=%d,%d" % (width, height), "--force-device-scale-factor=1", "--lang=en-US"):
        options.add_argument(flag)
    if phone:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 1, "touch": True}, "userAgent": PHONE})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def corner_brightness(driver):
    """The mean brightness of the picture's bottom-right corner as the browser shows it: the test
    pattern is white there, under Classic's box (bottom left) too, but Banner's bar covers it."""
    return driver.execute_script("""
        const image = document.getElementById('picture');
        const canvas = document.createElement('canvas');
        canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
        const context = canvas.getContext('2d');
        context.drawImage(image, 0, 0);
        const w = canvas.width, h = canvas.height;
        const data = context.getImageData(Math.floor(w * 0.9), Math.floor(h * 0.97), Math.floor(w * 0.08), 4).data;
        let sum = 0;
        for (let i = 0; i < data.length; i += 4) sum += (data[i] + data[i + 1] + data[i + 2]) / 3;
        return sum / (data.length / 4);
    """)


def element_digest(driver, element_id):
    return hashlib.sha256(driver.find_element(By.ID, element_id).screenshot_as_png).hexdigest()


def settled(driver, wait):
    """For a screenshot: the live picture showing and moving, and the status line saying what the
    server's state says (not a message from before)."""
    wait.until(lambda d: d.execute_script("return document.getElementById('picture').naturalWidth") > 0)
    shown = element_digest(driver, "picture")
    wait.until(lambda d: element_digest(d, "picture") != shown)
    wait.until(lambda d: d.find_element(By.ID, "app").get_attribute("data-phase") in ("viewfinder", "saved")
               and d.find_element(By.ID, "status").text == (SERVER.state().get("message") or ""))


def main():
    os.makedirs(OUT, exist_ok=True)
    global SERVER
    server = SERVER = Server(BINARY, "--user", "Ana Lima", "--project", "Bridge 7")
    driver = None
    try:
        driver = browser(412, 915, phone=True)  # a phone's screen
        wait = WebDriverWait(driver, FAILSAFE, poll_frequency=0.05)
        driver.get(server.url)
        wait.until(lambda d: d.execute_script("return document.getElementById('picture').naturalWidth") > 0)
        check(driver.find_element(By.ID, "style-name").text.startswith("Classic"), "the page shows the style: Classic")

        first = element_digest(driver, "picture")
        wait.until(lambda d: element_digest(d, "picture") != first)
        check(True, "the live picture changes")
        check(corner_brightness(driver) > 220, "Classic leaves the bottom-right corner to the picture")

        styles = json.loads(server.get("/api/styles")[1])
        # Swipe left on the picture: the next style.
        stage = driver.find_element(By.ID, "stage")
        ActionChains(driver).move_to_element(stage).click_and_hold().move_by_offset(-160, 0).release().perform()
        wait.until(lambda d: server.state()["style"]["index"] == 1)
        wait.until(lambda d: d.find_element(By.ID, "style-name").text.startswith(styles[1]["name"]))
        check(True, "a swipe on the picture goes to the next style: " + styles[1]["name"])
        wait.until(lambda d: corner_brightness(d) < 180)
        check(True, "the live picture shows the new style's stamp (Banner's bar across the bottom)")

        def phase():
            return driver.find_element(By.ID, "app").get_attribute("data-phase")

        driver.find_element(By.ID, "shutter").click()
        wait.until(lambda d: phase() == "reviewing")
        check(True, "the shutter shows the photo for review")
        driver.find_element(By.ID, "retake").click()
        wait.until(lambda d: phase() == "viewfinder")
        check(server.photo_files() == [], "retake: back to the viewfinder, nothing saved")

        driver.find_element(By.ID, "shutter").click()
        wait.until(lambda d: phase() == "reviewing")
        wait.until(lambda d: corner_brightness(d) < 180)  # the review picture arrives on the stream
        check(True, "the photo under review has the Banner stamp")
        driver.find_element(By.ID, "style-prev").click()
        wait.until(lambda d: server.state()["style"]["index"] == 0)
        wait.until(lambda d: corner_brightness(d) > 220)
        check(phase() == "reviewing", "the previous style re-draws the same shot in review, shown at once (no new photo)")
        driver.save_screenshot(os.path.join(OUT, "serve-review.png"))

        # A second client (a script) may watch but not shoot while the browser has the camera.
        status, answer = server.post("/api/shutter", client="script-client-1")
        check(status == 409 and "controls the camera" in answer.get("error", ""),
              "another client gets 409 while the browser controls the camera: " + answer.get("error", ""))

        driver.find_element(By.ID, "use").click()
        wait.until(lambda d: d.find_element(By.ID, "status").text.startswith("Saved "))
        saved_text = driver.find_element(By.ID, "status").text
        check(True, "the page says: " + saved_text)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#shots img")) == 1)
        wait.until(lambda d: d.execute_script("return document.querySelector('#shots img').naturalWidth") > 0)
        check(True, "the thumbnail strip shows the saved photo")

        files = server.photo_files()
        stamped = [f for f in files if f.endswith(".jpg") and not f.endswith(".original.jpg")]
        check(len(stamped) == 1, "exactly one photo saved: %s" % files)
        check(saved_text == "Saved " + stamped[0], "the page names the saved file")
        sidecar = json.load(open(os.path.join(server.photos, stamped[0][:-4] + ".json")))
        check(sidecar["template"]["id"] == styles[0]["id"],
              "the sidecar names the chosen style: %s" % sidecar["template"]["id"])
        check(sidecar["fields"]["user"] == "Ana Lima", "the photo carries the user given")
        status, photo = server.get("/shots/" + stamped[0])
        check(status == 200 and photo[:2] == b"\xff\xd8" and photo == open(os.path.join(server.photos, stamped[0]), "rb").read(),
              "the saved photo can be opened from the page (/shots/NAME)")

        # The fields panel changes the live stamp.
        driver.find_element(By.ID, "fields-button").click()
        note = driver.find_element(By.ID, "field-note")
        note.send_keys("north wall")
        driver.save_screenshot(os.path.join(OUT, "serve-fields.png"))
        driver.find_element(By.ID, "fields-done").click()
        wait.until(lambda d: server.state()["fields"]["note"] == "north wall")
        check(True, "the fields panel sets the note on the stamp")

        # A style that does not show given values says which, in the state and on the page.
        driver.find_element(By.ID, "style-prev").click()
        wait.until(lambda d: server.state()["style"]["index"] == len(styles) - 1)
        # Back from the last style to minimal, one style at a time (however many come after it).
        for _ in range(len(styles)):
            if server.state()["style"]["id"] == "minimal":
                break
            before = server.state()["style"]["index"]
            driver.find_element(By.ID, "style-prev").click()
            wait.until(lambda d: server.state()["style"]["index"] != before)
        wait.until(lambda d: server.state()["style"]["id"] == "minimal")
        check(server.state()["style"]["notShown"] == ["user", "project", "note"],
              "the state names the values Minimal does not show: %s" % server.state()["style"]["notShown"])
        wait.until(lambda d: d.find_element(By.ID, "notice").text == "The style Minimal does not show user, project, note")
        check(True, "the page says: " + driver.find_element(By.ID, "notice").text)
        at_minimal = server.state()["style"]["index"]
        driver.find_element(By.ID, "style-next").click()
        wait.until(lambda d: server.state()["style"]["index"] == (at_minimal + 1) % len(styles))

        # Someone else takes over: the page says so and offers to take it back.
        status, _ = server.post("/api/control", client="script-client-1")
        check(status == 200, "another client can take over")
        wait.until(lambda d: d.find_element(By.ID, "control").is_displayed())
        check("controls the camera" in driver.find_element(By.ID, "control-text").text,
              "the page says who controls the camera: " + driver.find_element(By.ID, "control-text").text)
        check(not driver.find_element(By.ID, "shutter").is_enabled(), "the shutter is off while another controls the camera")
        driver.save_screenshot(os.path.join(OUT, "serve-watching.png"))
        driver.find_element(By.ID, "take-over").click()
        wait.until(lambda d: not d.find_element(By.ID, "control").is_displayed())
        check(True, "the browser takes the camera back")

        settled(driver, wait)
        driver.save_screenshot(os.path.join(OUT, "serve-phone.png"))
        driver.quit()
        driver = browser(1280, 800)  # a laptop: a new page, told the phone has the camera until it takes over
        driver.get(server.url)
        laptop_wait = WebDriverWait(driver, FAILSAFE, poll_frequency=0.05)
        laptop_wait.until(lambda d: d.execute_script("return document.getElementById('picture').naturalWidth") > 0)
        laptop_wait.until(lambda d: d.find_element(By.ID, "control").is_displayed())
        driver.find_element(By.ID, "take-over").click()
        laptop_wait.until(lambda d: not d.find_element(By.ID, "control").is_displayed())
        settled(driver, laptop_wait)
        driver.save_screenshot(os.path.join(OUT, "serve-laptop.png"))
        print("screenshots: " + ", ".join(os.path.join(OUT, n) for n in ("serve-phone.png", "serve-review.png",
                                                                        "serve-fields.png", "serve-watching.png",
                                                                        "serve-laptop.png")))
    finally:
        if driver:
            driver.quit()
        server.stop()
    check(True, "SIGTERM stops serve with exit status 0")


if __name__ == "__main__":
    main()
