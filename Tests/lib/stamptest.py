"""Helpers shared by the Python test scripts (Tests/web, Tests/gps, Tests/hostile …), standard
library only. A script finds this folder with:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

Tests wait for something they can observe (a line, a file, a state, a socket's queue) and never for
a fixed time: `wait_until` and `Lines` take a failsafe timeout, which only ends a test that would
otherwise hang, and is never the wait the test expects."""
import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

# How long a failsafe waits by default: far beyond what any step takes on a slow, shared machine.
FAILSAFE = 120


class Checks:
    """One line a check ("ok    NAME" or "FAIL  NAME  -- DETAIL") and a closing count."""

    def __init__(self):
        self.results = []

    def __call__(self, name, condition, detail=""):
        self.results.append(bool(condition))
        print(("ok    " if condition else "FAIL  ") + name + ("" if condition else "  -- " + str(detail)), flush=True)
        return bool(condition)

    @property
    def all_passed(self):
        return all(self.results)

    def summary(self):
        passed = sum(self.results)
        print("%d passed, %d failed" % (passed, len(self.results) - passed), flush=True)
        return 0 if self.all_passed else 1


def require(condition, message):
    """A check that stops the script when it fails (the web tests' style)."""
    if not condition:
        raise AssertionError(message)
    print("ok   " + message, flush=True)


class TimedOut(AssertionError):
    pass


def wait_until(condition, what, timeout=FAILSAFE, interval=0.05):
    """Calls `condition` until it returns something true and returns that; raises TimedOut naming
    `what` when the failsafe passes first."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimedOut("gave up after %d s waiting for %s" % (timeout, what))
        time.sleep(interval)


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on (for a daemon that cannot take port 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def accepts_connections(port, host="127.0.0.1"):
    try:
        socket.create_connection((host, port), timeout=1).close()
        return True
    except OSError:
        return False


def isolated_env(folder, **extra):
    """The environment for a stampcam run that never sees the developer's configuration, catalog,
    caches or pictures: everything under `folder`."""
    env = dict(PATH=os.environ.get("PATH", "/usr/bin:/bin"), HOME=folder, XDG_CONFIG_HOME=os.path.join(folder, "config"),
               XDG_DATA_HOME=os.path.join(folder, "data"), XDG_CACHE_HOME=os.path.join(folder, "cache"),
               XDG_PICTURES_DIR=os.path.join(folder, "pictures"), TZ="UTC", LANG="C.UTF-8")
    env.update(extra)
    return env


class Lines:
    """The lines a process writes to a pipe, as they come: a thread reads them into a queue, so a
    test can wait for the next one with a failsafe instead of blocking for ever."""

    def __init__(self, stream):
        self._queue = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for line in stream:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def next(self, timeout=FAILSAFE):
        """The next line, or None at the end of the stream; TimedOut when none comes in time."""
        try:
            line = self._queue.get(timeout=timeout)
        except queue.Empty:
            raise TimedOut("no line within %d s (after %r)" % (timeout, self.seen[-1:]))
        if line is not None:
            self.seen.append(line)
        return line

    def rest(self, timeout=FAILSAFE):
        """Every line up to the end of the stream."""
        out = []
        while (line := self.next(timeout)) is not None:
            out.append(line)
        return out


def exiftool(paths, *tags):
    """exiftool's numeric reading (-n) of `tags` (e.g. "-GPSLatitude") for each file or folder in
    `paths`, by file name; {} when there is nothing to read."""
    done = subprocess.run(["exiftool", "-j", "-n", *tags, "-ext", "jpg", *paths], capture_output=True, text=True)
    return {os.path.basename(item["SourceFile"]): item for item in json.loads(done.stdout or "[]")}
