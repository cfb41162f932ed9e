"""A GPS receiver the test drives, read by a real gpsd. gpsd (Debian's, on a free port of its own)
takes its NMEA from a TCP socket of ours (`gpsd tcp://127.0.0.1:PORT`); a thread sends what the
receiver currently says five times a second, stamped with the time of sending. A test changes what
it says (`at`, `no_fix`, `garbage`) in answer to what it observed — a photo saved, a line printed —
so a walk goes on when the photo of the last place is taken, never after a guessed time."""
import datetime
import json
import os
import socket
import subprocess
import threading

import nmea
from stamptest import FAILSAFE, TimedOut, free_port, wait_until


class Receiver:
    def __init__(self, env, clock_offset=datetime.timedelta(0)):
        self._lock = threading.Lock()
        self._say = lambda when: ""
        self._clock_offset = clock_offset
        self._stopped = threading.Event()
        self.epochs_sent = 0
        source = socket.socket()
        source.bind(("127.0.0.1", 0))
        source.listen(1)
        source.settimeout(FAILSAFE)
        self.port = free_port()
        # -n: open the source at once, without waiting for a client; -b: never write to it;
        # a shared-memory key of its own, so parallel gpsds do not share one segment.
        self.gpsd = subprocess.Popen(["gpsd", "-N", "-n", "-b", "-S", str(self.port),
                                      "tcp://127.0.0.1:%d" % source.getsockname()[1]],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     env=dict(env, GPSD_SHM_KEY="0x4770%04X" % self.port))
        try:
            self._line, _ = source.accept()
        except socket.timeout:
            self.gpsd.kill()
            raise TimedOut("gpsd never connected to the receiver")
        finally:
            source.close()
        self._feeder = threading.Thread(target=self._feed, daemon=True)
        self._feeder.start()

    def _feed(self):
        while not self._stopped.is_set():
            when = datetime.datetime.now(datetime.timezone.utc) + self._clock_offset
            with self._lock:
                text = self._say(when)
            try:
                self._line.sendall(text.encode("latin-1"))
            except OSError:
                return  # gpsd has gone
            with self._lock:
                self.epochs_sent += 1
            self._stopped.wait(0.2)  # the receiver's rate: five epochs a second

    def _set(self, say):
        with self._lock:
            self._say = say
            self.epochs_sent = 0

    def at(self, place, hdop=0.9, alt=35.0):
        """A 3D fix at `place` (lat, lon), course 45°."""
        self._set(lambda when: nmea.epoch(when, place[0], place[1], hdop=hdop, alt=alt))

    def no_fix(self):
        self._set(lambda when: nmea.epoch(when, 0, 0, fix=False))

    def garbage(self):
        self._set(nmea.garbage)

    def sent(self):
        with self._lock:
            return self.epochs_sent

    def wait_for_report(self, matches, what):
        """Watches gpsd as a client until it reports a TPV for which `matches(tpv)` holds: what a
        photo taken now will be given."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=FAILSAFE) as client:
            client.sendall(b'?WATCH={"enable":true,"json":true};')
            reader = client.makefile("r", encoding="utf-8", errors="replace")

            def reported():
                report = json.loads(reader.readline() or "{}")
                return report.get("class") == "TPV" and matches(report)
            wait_until(reported, "gpsd to report " + what, interval=0)

    def wait_for_fix(self, place):
        self.wait_for_report(lambda tpv: tpv.get("mode", 0) >= 3 and abs(tpv.get("lat", 0) - place[0]) < 1e-6
                             and abs(tpv.get("lon", 0) - place[1]) < 1e-6, "a 3D fix at %s" % (place,))

    def stop(self):
        """gpsd and the receiver go away, as when gpsd is stopped or the receiver unplugged."""
        self._stopped.set()
        self.gpsd.terminate()
        try:
            self.gpsd.wait(FAILSAFE)
        except subprocess.TimeoutExpired:
            self.gpsd.kill()
            self.gpsd.wait()
        self._line.close()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        if self.gpsd.poll() is None:
            self.stop()
