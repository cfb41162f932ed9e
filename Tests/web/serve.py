"""Starts `stampcam serve` for a test and stops it: a free loopback port (port 0, the URL read
from the first line it prints), its own output folder and an empty home (never the developer's
configuration), and a check that SIGTERM ends it with exit status 0."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from stamptest import FAILSAFE, isolated_env, require as check, wait_until  # noqa: E402,F401


class Server:
    def __init__(self, binary, *args, listen="127.0.0.1:0", keep_original=True, photos=None, before=None, device="test"):
        self.folder = tempfile.mkdtemp(prefix="stampcam-web-")
        self.photos = photos or os.path.join(self.folder, "photos")
        home = os.path.join(self.folder, "home")
        os.makedirs(home)
        env = isolated_env(home)
        self.env = env
        if before:
            before(env)  # set up the home first (a team, say)
        # device=None: no camera of its own (serve --team opens none unless told which).
        command = [binary, "serve", "--listen", listen, "-o", self.photos, *args] + (["--device", device] if device else [])
        if keep_original:
            command.append("--keep-original")
        self.errors = open(os.path.join(self.folder, "stderr.txt"), "w+")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self.errors, env=env, text=True)
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith(("http://", "https://")):
            self.stop(check=False)
            raise RuntimeError("serve printed no URL; stderr:\n" + self.stderr())
        self.base = self.url.split("?")[0]
        self.port = urllib.parse.urlsplit(self.base).port

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

    def wait_for(self, condition, what):
        """The state, once `condition(state)` holds."""
        last = {}

        def holds():
            last["state"] = self.state()
            return last["state"] if condition(last["state"]) else None
        try:
            return wait_until(holds, what)
        except AssertionError as error:
            raise AssertionError("%s; last state: %s" % (error, json.dumps(last.get("state"))))

    def stop(self, check=True):
        """SIGTERM: the server must end by itself, with status 0 (the failsafe only keeps a hung
        server from hanging the test)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=FAILSAFE)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                if check:
                    raise AssertionError("serve did not stop after SIGTERM")
        if check and self.process.returncode != 0:
            raise AssertionError("serve exited with %s after SIGTERM; stderr:\n%s" % (self.process.returncode, self.stderr()))

    def photo_files(self):
        names = sorted(os.listdir(self.photos)) if os.path.isdir(self.photos) else []
        return [n for n in names if not n.startswith(".")]
