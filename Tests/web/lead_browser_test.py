"""The lead's page in Chromium, at a phone's 390×844 and a laptop's 1280×900: a lead's link lists
the day (photos uploaded by the team's phones and `apply`'d into the served catalog) as a
timeline, nothing wider than the screen; the person filter and the grouping by site work; a photo
opens with its verdict; the report, the KMZ and the CSV download and open (pdfinfo, pdftotext,
zipfile, csv); the plan shows; a person is added and their QR code shows; a member's link gets no
lead page. Screenshots lead-*.png in .build/web/."""
import csv
import glob
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from lead_test import apply, make_photos
from serve import FAILSAFE, Server, check
from uploads import form, picture, request, team_add

BINARY = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else ".build/web"
PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"


def browser(width, height, downloads, phone=False, language="en-US"):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=%d,%d" % (width, height), "--force-device-scale-factor=1", "--lang=" + language):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"download.default_directory": downloads, "download.prompt_for_download": False,
                                              "intl.accept_languages": language})
    if phone:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 1, "touch": True}, "userAgent": PHONE})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    return driver


def painted(driver, query_part=""):
    """Waits until the timeline for a query holding `query_part` is painted; its tiles."""
    WebDriverWait(driver, FAILSAFE, poll_frequency=0.05).until(
        lambda d: query_part in (d.execute_script("return document.body.dataset.painted") or "\0"))
    return driver.find_elements(By.CSS_SELECTOR, "#timeline .photo")


def overflowing(driver):
    """Elements reaching past the viewport's right or left edge (the page must not scroll sideways)."""
    return driver.execute_script("""
        const width = document.documentElement.clientWidth, out = [];
        for (const e of document.querySelectorAll('body *')) {
            if (e.closest('dialog:not([open])') || e.offsetParent === null) continue;
            const r = e.getBoundingClientRect();
            if (r.width > 0 && (r.right > width + 1 || r.left < -1)) out.push(e.tagName + '#' + e.id + '.' + e.className);
        }
        return out.concat(document.documentElement.scrollWidth > width ? ['page scrolls sideways'] : []);
    """)


def downloaded(folder, suffix, before):
    """The file ending in `suffix` that appears in `folder` (not one of `before`), once complete."""
    def ready():
        found = [p for p in glob.glob(os.path.join(folder, "*" + suffix)) if p not in before]
        return found[0] if found and not glob.glob(os.path.join(folder, "*.crdownload")) else None
    return WebDriverWait(None, FAILSAFE, poll_frequency=0.1).until(lambda _: ready())


def main():
    os.makedirs(OUT, exist_ok=True)
    tokens = {}

    def make_team(env):
        tokens["Ana"] = team_add(BINARY, env, "Ana Lima", "--project", "Bridge 7")
        tokens["Ben"] = team_add(BINARY, env, "Ben")
        tokens["Lee"] = team_add(BINARY, env, "Lee", "--lead")

    server = Server(BINARY, "--team", "--max-size", "0", keep_original=False, before=make_team)
    downloads = tempfile.mkdtemp(prefix="stampcam-lead-downloads-")
    driver = None
    try:
        spots = [(60.1699, 24.9384), (60.1704, 24.9391), (60.1712, 24.9402), (60.1695, 24.9370)]
        for index, (lat, lon) in enumerate(spots):
            who = "Ana" if index < 3 else "Ben"
            status, answer = request(server.port, form(picture(1200, 900, seed=index), review="0", latitude=str(lat), longitude=str(lon),
                                                       accuracy="4", note="Pier %d" % (index + 1)), token=tokens[who])
            check(status == 200, "%s's photo %d uploaded (%s)" % (who, index + 1, status))
        apply(BINARY, server.env, make_photos(os.path.join(server.folder, "camera"), 2, size=(800, 600)),
              os.path.join(server.folder, "applied"), "--user", "Carol", "--project", "Depot")
        lead_url = "http://127.0.0.1:%d/team?token=%s" % (server.port, tokens["Lee"])

        # A phone.
        driver = browser(390, 844, downloads, phone=True)
        driver.get(lead_url)
        tiles = painted(driver)
        check(len(tiles) == 6, "the phone lists the day's six photos (%d)" % len(tiles))
        groups = [h.text.split("\n")[0] for h in driver.find_elements(By.CSS_SELECTOR, "#timeline .group h2")]
        counts = [n.text for n in driver.find_elements(By.CSS_SELECTOR, "#timeline .group h2 .n")]
        check(groups == ["Ana Lima", "Ben", "Carol"] and counts == ["3", "1", "2"], "grouped by person (%s %s)" % (groups, counts))
        WebDriverWait(driver, FAILSAFE).until(lambda d: d.execute_script(
            "return Array.from(document.querySelectorAll('#timeline img')).slice(0, 4).every(i => i.complete && i.naturalWidth > 0)"))
        check(overflowing(driver) == [], "nothing wider than the phone (%s)" % overflowing(driver)[:5])
        driver.save_screenshot(os.path.join(OUT, "lead-phone.png"))
        Select(driver.find_element(By.ID, "person")).select_by_value("Ana Lima")
        tiles = painted(driver, "person=Ana")
        check(len(tiles) == 3, "the person filter leaves Ana's three (%d)" % len(tiles))
        driver.find_element(By.ID, "by-site").click()
        WebDriverWait(driver, FAILSAFE).until(lambda d: d.find_element(By.ID, "by-site").get_attribute("aria-pressed") == "true")
        painted(driver, "person=Ana")
        driver.find_elements(By.CSS_SELECTOR, "#timeline .photo")[0].click()
        WebDriverWait(driver, FAILSAFE).until(lambda d: "valid" in d.find_element(By.ID, "verdict").get_attribute("class").split())
        verdict = driver.find_element(By.ID, "verdict").text
        check("Signed by this server" in verdict, "a photo opens with its verdict (%s)" % verdict)
        WebDriverWait(driver, FAILSAFE).until(lambda d: d.execute_script(
            "const i = document.getElementById('full'); return i.complete && i.naturalWidth > 0"))
        rows = driver.find_element(By.ID, "rows").text
        check("Ana Lima" in rows and "Pier 1" in rows, "with its stamp values (%s)" % rows.replace("\n", " | ")[:120])
        check(overflowing(driver) == [], "the photo fits the phone (%s)" % overflowing(driver)[:5])
        driver.save_screenshot(os.path.join(OUT, "lead-photo-phone.png"))
        driver.find_element(By.ID, "viewer-close").click()

        # Downloads of the filter (Ana's three).
        before = set(glob.glob(os.path.join(downloads, "*")))
        driver.find_element(By.ID, "report").click()
        pdf = downloaded(downloads, ".pdf", before)
        info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True)
        text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True).stdout
        check(info.returncode == 0 and "Ana Lima" in text and "Carol" not in text and "1 of 3" in text,
              "the report downloads and opens: Ana's three photos (%s)" % info.stdout.splitlines()[:1])
        subprocess.run(["pdftoppm", "-r", "50", "-f", "1", "-l", "3", "-png", pdf, os.path.join(OUT, "lead-report")], check=False)
        driver.find_element(By.ID, "kmz").click()
        kmz = downloaded(downloads, ".kmz", before)
        names = zipfile.ZipFile(kmz).namelist()
        check("doc.kml" in names and sum(n.endswith(".jpg") for n in names) == 3, "the KMZ downloads and opens (%s)" % names)
        driver.find_element(By.ID, "csv").click()
        table = downloaded(downloads, ".csv", before)
        with open(table, encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        check([r["user"] for r in rows] == ["Ana Lima"] * 3, "the CSV downloads and parses (%s)" % [r["user"] for r in rows])
        driver.quit()

        # A phone in Arabic: the page's words from the catalogue, right to left, nothing cut off.
        driver = browser(390, 844, downloads, phone=True, language="ar")
        driver.get(lead_url)
        painted(driver)
        WebDriverWait(driver, FAILSAFE).until(lambda d: d.execute_script("return document.documentElement.dir") == "rtl")
        title = driver.find_element(By.TAG_NAME, "h1").text
        check(title == "يوم الفريق", "the page in Arabic, right to left (%s)" % title)
        check(overflowing(driver) == [], "nothing wider than the phone in Arabic (%s)" % overflowing(driver)[:5])
        driver.save_screenshot(os.path.join(OUT, "lead-phone-ar.png"))
        driver.quit()

        # A laptop.
        driver = browser(1280, 900, downloads)
        driver.get(lead_url)
        tiles = painted(driver)
        check(len(tiles) == 6, "the laptop lists the day's six photos (%d)" % len(tiles))
        WebDriverWait(driver, FAILSAFE).until(lambda d: d.execute_script(
            "const i = document.getElementById('plan'); return !document.getElementById('plan-box').hidden && i.complete && i.naturalWidth > 0"))
        check(True, "the plan shows beside the timeline")
        WebDriverWait(driver, FAILSAFE).until(lambda d: d.execute_script(
            "return Array.from(document.querySelectorAll('#timeline img')).every(i => i.complete && i.naturalWidth > 0)"))
        check(overflowing(driver) == [], "nothing wider than the laptop's window (%s)" % overflowing(driver)[:5])
        driver.save_screenshot(os.path.join(OUT, "lead-desktop.png"))
        WebDriverWait(driver, FAILSAFE).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#people li")) == 3)
        driver.find_element(By.ID, "new-name").send_keys("Dee")
        driver.find_element(By.ID, "new-project").send_keys("Bridge 7")
        driver.find_element(By.CSS_SELECTOR, "#add button").click()
        WebDriverWait(driver, FAILSAFE).until(lambda d: d.execute_script(
            "const i = document.getElementById('qr'); return document.getElementById('qr-view').open && i.complete && i.naturalWidth > 0"))
        link = driver.find_element(By.ID, "qr-link").text
        check("?token=" in link and len(driver.find_elements(By.CSS_SELECTOR, "#people li")) == 4,
              "a person added on the page, their link and QR code shown (%s)" % link[:40])
        driver.save_screenshot(os.path.join(OUT, "lead-person-added.png"))
        code = os.path.join(OUT, "lead-qr.png")
        driver.find_element(By.ID, "qr").screenshot(code)
        decoded = subprocess.run(["zbarimg", "-q", "--raw", code], capture_output=True, text=True).stdout.strip()
        check(decoded == link, "the QR code reads as the link (zbarimg: %s)" % decoded[:40])
        roster = json.load(open(os.path.join(server.env["XDG_CONFIG_HOME"], "stampcam", "team.json")))
        check("Dee" in [p["name"] for p in roster["people"]], "and in the team file")
        driver.find_element(By.ID, "qr-close").click()

        # A member's link: no lead page (the lead's cookie gone first: a cookie wins over the link).
        driver.delete_all_cookies()
        driver.get("http://127.0.0.1:%d/team?token=%s" % (server.port, tokens["Ben"]))
        body = driver.find_element(By.TAG_NAME, "body").text
        check("lead" in body and "Ana" not in body, "a member's link gets no lead page (%s)" % body[:80])
        server.stop()
    finally:
        if driver:
            driver.quit()
        server.stop(check=False)


if __name__ == "__main__":
    main()
