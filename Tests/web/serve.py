"""Starts `stampcam serve` for a test and stops it: a free loopback port (port 0, the URL read
from the first line it prints), its own output folder and an empty home (never the developer's
configuration), and a check that SIGTERM ends it with exit status 0."""
import json
import os
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request


class Server:
    def __init__(self, binary, *args, listen="127.0.0.1:0", keep_original=True):
        self.folder = tempfile.mkdtemp(prefix="stampcam-web-")
        self.photos = os.path.join(self.folder, "photos")
        home = os.path.join(self.folder, "home")
        os.makedirs(home)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
               "TZ": "UTC", "LANG": "C.UTF-8"}
        command = [binary, "serve", "--device", "test", "--listen", listen, "-o", self.photos, *args]
        if keep_original:
            command.append("--keep-original")
        self.errors = open(os.path.join(self.folder, "stderr.txt"), "w+")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self.errors, env=env, text=True)
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("http://"):
            self.stop(check=False)
            raise RuntimeError("serve printed no URL; stderr:\n" + self.stderr())
        self.base = self.url.split("?")[0]
        self.port = int(self.base.rstrip("/").rsplit(":", 1)[1])

    def stderr(self):
        self.errors.flush()
        with open(self.errors.name) as f:
            return f.read()

    def get(self, path, headers=None):
        request = urllib.request.Request(self.base.rstrip("/") + path, headers=headers or {})
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()

    def state(self):
        return json.loads(self.get("/api/state")[1])

    def post(self, path, body=None, client=None):
        headers = {"Content-Type": "application/json"}
        if client:
            headers["X-Stampcam-Client"] = client
        data = json.dumps(body or {}).encode()
        request = urllib.request.Request(self.base.rstrip("/") + path, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def wait_for(self, condition, what, timeout=20):
        end = time.time() + timeout
        while time.time() < end:
            state = self.state()
            if condition(state):
                return state
            time.sleep(0.05)
        raise AssertionError("timed out waiting for " + what + "; last state: " + json.dumps(state))

    def stop(self, check=True):
        """SIGTERM: the server must end by itself, with status 0, within 15 s."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                if check:
                    raise AssertionError("serve did not stop within 15 s of SIGTERM")
        if check and self.process.returncode != 0:
            raise AssertionError("serve exited with %s after SIGTERM; stderr:\n%s" % (self.process.returncode, self.stderr()))

    def photo_files(self):
        names = sorted(os.listdir(self.photos)) if os.path.isdir(self.photos) else []
        return [n for n in names if not n.startswith(".")]


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print("ok   " + message)
