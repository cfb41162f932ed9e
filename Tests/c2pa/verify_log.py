"""verify_log.py STAMPCAM — `make test-c2pa`: the photo log cannot be switched off, black-box. Photos
are stamped and signed by `apply` (each records the log's head), then the catalog is tampered with
from outside, as a forger with sqlite3 would: every row flagged as older than the chain, one column
changed, the newest row deleted (found through its photo under the folder given), and an anchor
printed by `log --anchor` checked after rows up to it were changed or deleted. `log --verify` must
exit 1 and name each; an untouched log exits 0. Prints `c2pa-log: N passed, M failed`."""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

import fixtures

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from stamptest import Checks, isolated_env  # noqa: E402

STAMPCAM = os.path.realpath(sys.argv[1])
check = Checks()
work = tempfile.mkdtemp(prefix="stampcam-c2pa-log.")


def logged(name, count=4):
    """A catalog of `count` signed photos under WORK/NAME, stamped one run each (so each records the head before it)."""
    folder = os.path.join(work, name)
    catalog = os.path.join(folder, "catalog.sqlite")
    os.makedirs(folder)
    for index in range(count):
        source = fixtures.make_jpeg(os.path.join(folder, f"in{index}.jpg"), width=64 + 8 * index, height=48)
        result = subprocess.run([STAMPCAM, "apply", source, "-o", os.path.join(folder, "out"), "--catalog", catalog, "--user", "Li Wei"],
                                env=env, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
    return folder, catalog


def verify(catalog, *args):
    return subprocess.run([STAMPCAM, "log", "--verify", "--catalog", catalog, *args], env=env, capture_output=True, text=True)


def tamper(catalog, sql):
    db = sqlite3.connect(catalog)
    db.executescript(sql)
    db.commit()
    db.close()


try:
    env = isolated_env(work)
    folder, catalog = logged("intact")
    result = verify(catalog, os.path.join(folder, "out"))
    check("an untouched log verifies: exit 0, every photo's head checked",
          result.returncode == 0 and "4 photos' recorded heads checked" in result.stderr, result.stderr)

    folder, catalog = logged("off")
    tamper(catalog, "UPDATE photos SET unchained = 1, chain = NULL, link = NULL, previous_hash = NULL, row_hash = NULL")
    result = verify(catalog)
    check("one UPDATE flagging every row as older than the chain: exit 1, each row named",
          result.returncode == 1 and result.stdout.count("it is not one of the rows that were") == 4, result.stdout + result.stderr)
    check("... and each row's photo shows it was logged after the chain began (all but the first, which records no head)",
          result.stdout.count("its photo records the chain's head") == 3, result.stdout)

    for column, value in [("user", "'Mallory'"), ("time", "'2020-01-01T00:00:00+00:00'"), ("code", "'K7MN-4XRT-9P'"),
                          ("sha256", "'" + "0" * 64 + "'"), ("link", "7")]:
        folder, catalog = logged("column-" + column, count=3)
        tamper(catalog, f"UPDATE photos SET {column} = {value} WHERE link = 2")
        result = verify(catalog)
        check(f"{column} of a row changed: exit 1, the row named", result.returncode == 1 and "row " in result.stdout, result.stdout + result.stderr)

    folder, catalog = logged("newest")
    tamper(catalog, "DELETE FROM photos WHERE link = 4")
    result = verify(catalog)
    check("the newest row deleted: the chain alone is intact", result.returncode == 0, result.stdout + result.stderr)
    result = verify(catalog, os.path.join(folder, "out"))
    check("... its photo, found under the folder given, was made after row 3 and no row logs it: exit 1",
          result.returncode == 1 and "made after row 3" in result.stdout and "in3.jpg" in result.stdout, result.stdout + result.stderr)

    folder, catalog = logged("anchor", count=2)
    printed = subprocess.run([STAMPCAM, "log", "--anchor", "--catalog", catalog], env=env, capture_output=True, text=True)
    words = printed.stdout.split()
    anchor = words[4] if len(words) > 4 else ""
    check("log --anchor prints the head as a line to paste", printed.returncode == 0 and anchor.startswith("2:") and len(anchor) == 66,
          printed.stdout + printed.stderr)
    source = fixtures.make_jpeg(os.path.join(folder, "later.jpg"))
    subprocess.run([STAMPCAM, "apply", source, "-o", os.path.join(folder, "out"), "--catalog", catalog], env=env, capture_output=True, check=True)
    result = verify(catalog, "--anchor", anchor)
    check("log --verify --anchor after more photos: nothing up to it changed, exit 0",
          result.returncode == 0 and "nothing logged up to it has changed" in result.stderr, result.stderr)
    shutil.copy(catalog, catalog + ".kept")
    tamper(catalog, "UPDATE photos SET project = 'Forged' WHERE link = 1")
    result = verify(catalog, "--anchor", anchor)
    check("a row before the anchor changed: exit 1, the anchor says so", result.returncode == 1 and "rows up to it were changed" in result.stderr,
          result.stderr)
    shutil.copy(catalog + ".kept", catalog)
    tamper(catalog, "DELETE FROM photos WHERE link >= 2")
    result = verify(catalog, "--anchor", anchor)
    check("the anchor's row and all after it deleted: exit 1, the anchor is not in the log",
          result.returncode == 1 and "is not in the log" in result.stderr, result.stderr)
    bad = verify(catalog, "--anchor", "not-an-anchor")
    check("a malformed anchor: exit 64", bad.returncode == 64, bad.stderr)
finally:
    if os.environ.get("C2PA_KEEP"):
        print("kept", work)
    else:
        shutil.rmtree(work, ignore_errors=True)

passed = sum(check.results)
print(f"c2pa-log: {passed} passed, {len(check.results) - passed} failed")
sys.exit(0 if check.all_passed else 1)
