"""`serve --keep-original` on a disk that fills while the original is written: the stamped photo
is saved and counted, the original is not; once room is made, "Use" again finishes that photo
(its original and sidecar, under the names its record gives) instead of failing on its own file,
and the summary counts what is on disk. The disk is a small tmpfs (mounting needs root; skipped
with a message otherwise)."""
import json
import os
import subprocess
import sys
import tempfile

from serve import Server, check, isolated_env

ROOM = 48 * 1024  # room for the small stamped photo (12 KB) and its claim files, not for the original (90 KB)


def free_bytes(folder):
    info = os.statvfs(folder)
    return info.f_bavail * info.f_frsize


def main(binary):
    mount = tempfile.mkdtemp(prefix="stampcam-full-")
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount]).returncode != 0:
        print("skip full disk: mounting a small tmpfs needs root")
        os.rmdir(mount)
        return
    try:
        for retry in (False, True):
            run(binary, mount, retry)
    finally:
        subprocess.run(["umount", mount])
        os.rmdir(mount)


def run(binary, mount, retry):
    """One photo saved without its original for want of room; then, with room made, "Use" again
    (`retry`), or the server stopped at once."""
    server = None
    try:
        filler = os.path.join(mount, "filler")
        with open(filler, "wb") as f:
            f.write(b"\0" * (free_bytes(mount) - ROOM))
        # A 1920x1080 original is far larger than the room; the photo, fitted to 320 px, is not.
        server = Server(binary, "--resolution", "1920x1080", "--max-size", "320", photos=os.path.join(mount, "photos-%d" % retry))
        server.wait_for(lambda s: s["phase"] == "viewfinder", "the viewfinder")
        server.post("/api/shutter")
        server.wait_for(lambda s: s["phase"] == "reviewing", "the shot under review")
        server.post("/api/use")
        state = server.wait_for(lambda s: s["phase"] == "reviewing" and s["message"], "the save to fail")
        check("no space left" in state["message"], "a full disk while the original is written is named (%s)" % state["message"])
        photos = [n for n in server.photo_files() if not n.endswith(".original.jpg")]
        check(len(photos) == 1 and photos[0].endswith(".jpg"), "the stamped photo is saved (%s)" % server.photo_files())
        os.remove(filler)
        if retry:
            server.post("/api/use")
            state = server.wait_for(lambda s: s["phase"] != "saving" and (s["phase"] == "saved" or s["message"]), "the retry")
            check(state["phase"] == "saved", "the retry saves (%s: %s)" % (state["phase"], state["message"]))
            stem = photos[0][:-len(".jpg")]
            check(server.photo_files() == sorted([photos[0], stem + ".original.jpg", stem + ".json"]),
                  "the retry wrote the original and the sidecar beside the same photo, nothing else (%s)" % server.photo_files())
        server.stop()
        logged = subprocess.run([binary, "log", "--json"], env=isolated_env(os.path.join(server.folder, "home")),
                                capture_output=True, text=True).stdout.splitlines()
        check(len(logged) == 1 and (json.loads(logged[0]).get("original") is not None) == retry,
              "logged once, with its original once that is saved (%s)" % logged)
        summary = [line for line in server.stderr().splitlines() if " saved in " in line]
        check(summary and summary[-1].startswith("stampcam: 1 photo saved in "),
              "%s: the summary counts the photo on disk (%s)" % ("retried" if retry else "not retried", summary))
    finally:
        if server:
            server.stop(check=False)

if __name__ == "__main__":
    main(sys.argv[1])
