"""The public check page over real sockets, then in Chromium at phone size.

`serve` on 0.0.0.0 (every other route needs the token) answers /verify without one: a photo posted
as the multipart field `photo` gets its verdict — valid and found in the log with the facts chosen,
changed, unsigned — in JSON or, without asking for JSON, a sentence in the Accept-Language's
language; codes good, wrong and malformed; the thumbnail; an announced-huge and an endless upload
cut; nothing stored (no file appears anywhere under the server's folders, no row in the log);
the rate limit (429 with Retry-After; another address is still answered). `serve --verify-only`
answers the check page and nothing else. In Chromium at phone size the page judges a good, a
changed and an unsigned photo and the three kinds of code; screenshots `check-*.png`."""
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from serve import FAILSAFE, Server, check

BINARY = os.path.realpath(sys.argv[1])
OUT = sys.argv[2] if len(sys.argv) > 2 else ".build/web"
ORG = "Acme Site Services"


def ppm(path, width=320, height=240):
    with open(path, "wb") as f:
        f.write(b"P6 %d %d 255\n" % (width, height))
        f.write(bytes(((x * 7 + y) % 256, (y * 3) % 256, (x ^ y) % 256)[c] for y in range(height) for x in range(width) for c in range(3)))


def make_photos(env, folder):
    """A photo signed in the organisation's name and logged, a changed copy, and an unsigned one."""
    os.makedirs(folder, exist_ok=True)
    run = lambda *args: subprocess.run([BINARY, *args], env=env, capture_output=True, text=True, check=True)
    run("keys", "init", "--org", ORG)
    ppm(os.path.join(folder, "source.ppm"))
    plain = os.path.join(folder, "plain.jpg")
    subprocess.run(["cjpeg", "-quality", "90", "-outfile", plain, os.path.join(folder, "source.ppm")], check=True)
    run("apply", plain, "-o", os.path.join(folder, "signed"), "--project", "Bridge 7", "--user", "Li Wei")
    good = os.path.join(folder, "signed", "plain.jpg")
    data = bytearray(open(good, "rb").read())
    data[-200] ^= 0x01  # in the picture's entropy-coded data, near its end
    changed = os.path.join(folder, "changed.jpg")
    open(changed, "wb").write(data)
    code = json.loads(subprocess.run([BINARY, "verify", "--json", good], env=env, capture_output=True, text=True).stdout)["stamp"]["code"]
    return good, changed, plain, code


def multipart(path, field="photo"):
    boundary = uuid.uuid4().hex
    with open(path, "rb") as f:
        content = f.read()
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"photo.jpg\"\r\n"
            "Content-Type: image/jpeg\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def request(port, method, path, body=None, headers=None, source="127.0.0.3"):
    """One request from `source`: each part of the test from an address of its own (loopback has
    them all), so each has its own share of the rate limit; the browser's come from 127.0.0.1."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=FAILSAFE, source_address=(source, 0))
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    answer = (response.status, dict(response.getheaders()), response.read())
    connection.close()
    return answer


def post_photo(port, path, accept="application/json", language=None, source="127.0.0.3"):
    body, kind = multipart(path)
    headers = {"Content-Type": kind, "Accept": accept}
    if language:
        headers["Accept-Language"] = language
    status, headers, data = request(port, "POST", "/verify", body, headers, source=source)
    return status, (json.loads(data) if "json" in headers.get("Content-Type", "") else data.decode())


def files_under(*folders):
    """Every file under `folders`, but SQLite's own beside the catalog (a reader may make them)."""
    return sorted(os.path.join(root, name) for folder in folders for root, _, names in os.walk(folder) for name in names
                  if not name.endswith(("-wal", "-shm", "-journal")))


def hostile_uploads(port):
    # From addresses of their own: each a share of the rate limit.
    # Announced huge: refused before the body is read.
    connection = socket.create_connection(("127.0.0.1", port), timeout=FAILSAFE, source_address=("127.0.0.4", 0))
    boundary = "x" * 16
    connection.sendall(b"POST /verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=" + boundary.encode()
                       + b"\r\nContent-Length: 104857600\r\n\r\n")
    answer = connection.recv(4096)
    connection.close()
    check(answer.startswith(b"HTTP/1.1 413"), "an upload announcing 100 MB gets 413 before its body (%r)" % answer[:40])
    # Endless, chunked: cut once over the limit (or by its deadline), never read for ever.
    connection = socket.create_connection(("127.0.0.1", port), timeout=FAILSAFE, source_address=("127.0.0.5", 0))
    connection.sendall(b"POST /verify HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Type: multipart/form-data; boundary="
                       + boundary.encode() + b"\r\n\r\n")
    head = f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n\r\n".encode()
    connection.sendall(b"%x\r\n%s\r\n" % (len(head), head))
    chunk = b"\xff" * 65536
    sent, answer, started = 0, b"", time.monotonic()
    try:
        while time.monotonic() - started < FAILSAFE:
            connection.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sent += len(chunk)
    except OSError:
        pass  # the server closed the connection
    try:
        answer = connection.recv(4096)
    except OSError:
        pass
    connection.close()
    check(sent < 200 << 20, "an endless upload is cut (after %d MB; answer %r)" % (sent >> 20, answer[:40]))


def sockets(server, good, changed, plain, code, home):
    port = server.port
    status, headers, _ = request(port, "GET", "/api/state")
    check(status == 401, "on 0.0.0.0 the camera's API needs the token (401)")
    status, headers, page = request(port, "GET", "/verify")
    check(status == 200 and headers.get("Content-Type", "").startswith("text/html") and b"verify.js" in page,
          "GET /verify without a token: the check page")
    for asset in ("/verify.js", "/verify.css", "/verify/words"):
        check(request(port, "GET", asset)[0] == 200, "GET %s without a token" % asset)
    before = files_under(server.folder)
    rows = subprocess.run(["python3", "-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from photos').fetchone()[0])",
                           os.path.join(home, "data", "stampcam", "catalog.sqlite")], capture_output=True, text=True).stdout

    status, verdict = post_photo(port, good)
    check(status == 200 and verdict.get("outcome") == "valid" and verdict.get("organization") == ORG and verdict.get("signer") == ORG,
          "a good photo: valid, signed by %s (%s)" % (ORG, verdict))
    log = verdict.get("log") or {}
    check(log.get("answer") == "found" and log.get("code") == code and log.get("facts", {}).get("project") == "Bridge 7"
          and "time" in log.get("facts", {}) and "user" not in log.get("facts", {}),
          "... its code found in the log, with the time and project (not the user: not chosen) (%s)" % log)
    status, verdict = post_photo(port, changed)
    check(status == 200 and verdict.get("outcome") == "changed" and verdict.get("log") is None,
          "a changed photo: changed, its code not looked up (%s)" % verdict)
    status, verdict = post_photo(port, plain)
    check(status == 200 and verdict.get("outcome") == "noCredentials", "an unsigned photo: no credentials (%s)" % verdict)
    status, sentence = post_photo(port, good, accept="text/html", language="es-ES,es;q=0.9")
    check(status == 200 and sentence.startswith("Sin cambios desde que una cámara de " + ORG), "without JSON asked: the verdict in Spanish (%r)" % sentence)
    status, sentence = post_photo(port, changed, accept="*/*")
    check(sentence.startswith("Changed after it was signed"), "... and in English by default (%r)" % sentence)
    status, headers, body = request(port, "POST", "/verify", b"{}", {"Content-Type": "application/json", "Accept": "application/json"})
    check(status == 400, "POST /verify without a photo: 400 (%d %r)" % (status, body[:80]))

    def lookup(typed):
        status, headers, body = request(port, "GET", "/verify?code=" + typed, headers={"Accept": "application/json"})
        return status, json.loads(body)
    status, answer = lookup(code.lower().replace("-", "%20"))
    check(status == 200 and answer.get("answer") == "found" and answer.get("code") == code and answer.get("thumbnail"),
          "a code typed in lower case with spaces: found (%s)" % answer)
    status, headers, thumbnail = request(port, "GET", answer["thumbnail"])
    check(status == 200 and headers.get("Content-Type") == "image/jpeg" and thumbnail[:2] == b"\xff\xd8" and len(thumbnail) < 60000,
          "its thumbnail: a small JPEG")
    wrong = "".join("3" if c != "-" else "-" for c in code) if code[0] != "3" else "4444-4444-44"
    status, answer = lookup(wrong)
    check(status == 200 and answer.get("answer") == "notFound", "a wrong code: not found (%s)" % answer)
    status, answer = lookup("HELLO")
    check(status == 200 and answer.get("answer") == "malformed", "a malformed code: said so (%s)" % answer)
    status, answer = lookup("%3Cscript%3E" * 20)
    check(status == 200 and answer.get("answer") == "malformed" and len(answer.get("code", "")) <= 40, "markup as a code: malformed, cut short")

    hostile_uploads(port)
    after = files_under(server.folder)
    rows_after = subprocess.run(["python3", "-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from photos').fetchone()[0])",
                                 os.path.join(home, "data", "stampcam", "catalog.sqlite")], capture_output=True, text=True).stdout
    check(before == after and rows == rows_after, "nothing stored: no file appeared, no row logged (%s)" % sorted(set(after) - set(before)))

    # The rate limit: one address (a fresh one), then another.
    asked = lambda source: request(port, "GET", "/verify?code=" + code, headers={"Accept": "application/json"}, source=source)
    statuses = [asked("127.0.0.6")[0] for _ in range(40)]
    check(statuses[:30] == [200] * 30 and statuses[30:] == [429] * 10, "30 look-ups a minute from one address, then 429 (%s)" % statuses)
    status, headers, _ = asked("127.0.0.6")
    check(status == 429 and headers.get("Retry-After") == "60", "... with Retry-After")
    status, verdict = post_photo(port, good, source="127.0.0.6")
    check(status == 429, "... and a photo from that address too, refused before its body")
    check(asked("127.0.0.7")[0] == 200, "another address is still answered")


def verify_only(home, good, changed):
    server = Server(BINARY, "--verify-only", "--trust", os.path.join(home, "ca.pem"), keep_original=False,
                    before=lambda env: shutil.copytree(os.path.join(home, "data"), os.path.join(env["XDG_DATA_HOME"])))
    try:
        check(server.url.endswith("/verify"), "serve --verify-only prints the check page's address (%s)" % server.url)
        port = server.port
        status, headers, _ = request(port, "GET", "/")
        check(status == 303 and headers.get("Location") == "/verify", "--verify-only: / leads to /verify")
        for method, path in (("GET", "/api/state"), ("GET", "/stream.mjpg"), ("POST", "/api/photos"), ("POST", "/api/shutter")):
            check(request(port, method, path)[0] == 404, "--verify-only: %s %s is 404" % (method, path))
        status, verdict = post_photo(port, good)
        check(status == 200 and verdict.get("outcome") == "valid" and verdict.get("organization") == ORG
              and (verdict.get("log") or {}).get("answer") == "found", "--verify-only: a good photo is valid and found (%s)" % verdict)
        check(post_photo(port, changed)[1].get("outcome") == "changed", "--verify-only: a changed one is changed")
        check(not os.path.exists(server.photos) or not files_under(server.photos), "--verify-only: no photo folder filled")
    finally:
        server.stop()


def phone_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=390,844",
                 "--force-device-scale-factor=1", "--lang=en-US"):
        options.add_argument(flag)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 1, "touch": True}})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def in_browser(server, good, changed, plain, code):
    os.makedirs(OUT, exist_ok=True)
    driver = phone_browser()
    base = "http://127.0.0.1:%d/verify" % server.port
    try:
        wait = WebDriverWait(driver, FAILSAFE)

        def sentence(start):
            try:
                wait.until(lambda d: d.find_element(By.ID, "sentence").text.startswith(start))
            except Exception:
                driver.save_screenshot(os.path.join(OUT, "check-failed.png"))
                raise AssertionError("the page says %r, not %r…" % (driver.find_element(By.ID, "sentence").text, start))
            return driver.find_element(By.ID, "sentence").text

        driver.get(base)
        wait.until(lambda d: ORG in d.find_element(By.ID, "intro").text)
        check(True, "Chromium: the page names the organisation")
        for label, photo, start in (("good", good, "Unchanged since a camera of " + ORG), ("changed", changed, "Changed after it was signed"),
                                    ("unsigned", plain, "This photo carries no signature")):
            driver.find_element(By.ID, "photo").send_keys(photo)
            text = sentence(start)
            check(True, "Chromium, a %s photo: %s" % (label, text))
            driver.save_screenshot(os.path.join(OUT, "check-%s.png" % label))
            driver.get(base)
            wait.until(lambda d: ORG in d.find_element(By.ID, "intro").text)
        driver.get(base + "?code=" + code)
        sentence("The photo log of " + ORG + " holds a photo")
        wait.until(lambda d: d.find_element(By.ID, "thumbnail").is_displayed()
                   and d.execute_script("return document.getElementById('thumbnail').naturalWidth") > 0)
        check("Bridge 7" in driver.find_element(By.ID, "facts").text, "Chromium, ?code=: found, with its project and a thumbnail")
        driver.save_screenshot(os.path.join(OUT, "check-code.png"))
        for typed, start in (("4444-4444-44" if code != "4444-4444-44" else "3333-3333-33", "The photo log of " + ORG + " holds no photo"),
                             ("hello", "“hello” is not a code")):
            field = driver.find_element(By.ID, "code")
            field.clear()
            field.send_keys(typed)
            driver.find_element(By.CSS_SELECTOR, "#code-form button").click()
            check(True, "Chromium, code %r: %s" % (typed, sentence(start)))
        driver.save_screenshot(os.path.join(OUT, "check-malformed.png"))
    finally:
        driver.quit()


def main():
    home = {}

    def prepare(env):
        home["env"] = env
        home["folder"] = os.path.dirname(env["XDG_DATA_HOME"])
        home["photos"] = make_photos(env, os.path.join(home["folder"], "made"))
        with open(os.path.join(home["folder"], "ca.pem"), "w") as f:
            f.write(subprocess.run([BINARY, "keys", "export-ca"], env=env, capture_output=True, text=True, check=True).stdout)

    server = Server(BINARY, listen="0.0.0.0:0", keep_original=False, before=prepare)
    good, changed, plain, code = home["photos"]
    try:
        sockets(server, good, changed, plain, code, home["folder"])
        in_browser(server, good, changed, plain, code)
    finally:
        server.stop()
    verify_only(home["folder"], good, changed)
    print("check page: all passed")


if __name__ == "__main__":
    main()
