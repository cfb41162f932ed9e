#!/usr/bin/env python3
"""The assertions of Tests/hostile/run.sh (standard library only).

    check.py snapshot DIR            prints a JSON snapshot of DIR (sha256 of regular files, link
                                     targets, file types); never opens anything but regular files
    check.py report WORK             checks the recorded runs in WORK against WORK/work/manifest.json,
                                     prints ok / not ok lines and a summary; exit 0 only if all pass

WORK layout (made by run.sh): in/ (the inputs), work/manifest.json, runs/ID/ (one run per input),
batch/ (the whole folder at -j 2); each run folder holds rc, clock, time (GNU time -v), stdout,
stderr and out/ (the output folder given to stampcam).
"""

import hashlib
import json
import os
import re
import stat
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_inputs import segments  # noqa: E402


def snapshot(root):
    """{hex relative path: description} for everything under root, by lstat: a FIFO or a device is
    described, never opened."""
    found = {}

    def walk(rel):
        path = os.path.join(root, rel) if rel else root
        for entry in sorted(os.listdir(path)):
            r = os.path.join(rel, entry) if rel else entry
            p = os.path.join(root, r)
            st = os.lstat(p)
            if stat.S_ISREG(st.st_mode):
                with open(p, "rb") as f:
                    found[r.hex()] = "file %d %s" % (st.st_size, hashlib.sha256(f.read()).hexdigest())
            elif stat.S_ISLNK(st.st_mode):
                found[r.hex()] = "symlink -> " + os.readlink(p).hex()
            elif stat.S_ISDIR(st.st_mode):
                found[r.hex()] = "dir"
                walk(r)
            elif stat.S_ISFIFO(st.st_mode):
                found[r.hex()] = "fifo"
            else:
                found[r.hex()] = "other %o" % st.st_mode

    walk(b"")
    return found


def files_under(root):
    """Relative paths (bytes) of everything under root except directories (empty folders are
    tolerated in an output folder)."""
    if not os.path.isdir(root):
        return []
    return [bytes.fromhex(k) for k, v in snapshot(root).items() if v != "dir"]


def safe(b, limit=160):
    """Bytes shown as ASCII: control characters and non-ASCII escaped, so a hostile name cannot
    drive the terminal that reads this report."""
    s = "".join(chr(c) if 0x20 <= c < 0x7F else "\\x%02x" % c for c in b)
    return s if len(s) <= limit else s[:limit] + "..."


def name_runs(name):
    """The printable-ASCII pieces of "/" + name: a line names the input when they all appear in
    it in order, however the other bytes (newline, ESC, 0xE9) were escaped or replaced."""
    return [r for r in re.split(rb"[^\x20-\x7e]+", b"/" + name) if r]


def names(line, runs):
    return after_name(line, runs) is not None


def after_name(line, runs):
    """What the line says after the name (None if it does not name it)."""
    at = 0
    for r in runs:
        at = line.find(r, at)
        if at < 0:
            return None
        at += len(r)
    return line[at:]


def is_warning(line):
    return re.search(rb"(?i)\b(warning|note):", line) is not None


def jpeg_problem(path):
    """None if djpeg decodes the file cleanly, else what is wrong."""
    try:
        r = subprocess.run(["djpeg", "-outfile", os.devnull, path], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=120, check=False)
    except subprocess.TimeoutExpired:
        return "djpeg hung (killed after 120 s)"
    if r.returncode != 0:
        return "not a valid JPEG (djpeg: %s)" % safe(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else b"?")
    return None


MAKER_NOTE = bytes((i * 7 + 3) & 255 for i in range(64))  # how make_inputs' MakerNote starts


def maker_note_kept(path):
    try:
        with open(path, "rb") as f:
            return MAKER_NOTE in f.read()
    except OSError:
        return False


def exif_problem(path):
    """None if the output carries the EXIF made for exif-huge (date, zone, artist), else what is wrong."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        app1 = [data[s.start + 4:s.hdr_end] for s in segments(data) if s.marker == 0xE1]
    except Exception as e:  # noqa: BLE001 - any parse failure is the answer
        return "cannot parse the output's segments (%s)" % e
    exif = [a for a in app1 if a.startswith(b"Exif\0\0")]
    if not exif:
        return "no EXIF in the output"
    missing = [t for t in (b"2021:06:15 10:20:30", b"+08:00", b"Hostile Harness") if t not in exif[0]]
    return "EXIF lost " + ", ".join(safe(t) for t in missing) if missing else None


class Report:
    def __init__(self):
        self.passed, self.failed = 0, []

    def check(self, kind, title, ok, detail=""):
        """kind groups the summary; the part of title before ':' names the case in it."""
        line = "%s - %s%s" % ("ok" if ok else "not ok", title, (": " + detail) if detail else "")
        print(line, flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed.append((kind, title))


class Run:
    """One recorded stampcam run."""

    def __init__(self, folder, limit):
        self.folder, self.limit = folder, limit
        self.rc = int(read(folder, "rc", b"-1"))
        start, end = read(folder, "clock", b"0 0").split()
        self.seconds = float(end) - float(start)
        m = re.search(rb"Maximum resident set size \(kbytes\): (\d+)", read(folder, "time", b""))
        self.rss_mb = int(m.group(1)) / 1024 if m else None
        self.stderr = read(folder, "stderr", b"")
        self.lines = [l for l in self.stderr.split(b"\n") if l.strip()]
        self.out = os.path.join(folder, b"out")

    def verdict(self):
        """(ok, detail) for 'no crash, no hang'."""
        rss = " peak RSS %.0f MB" % self.rss_mb if self.rss_mb is not None else ""
        if self.rc == 124 or (self.rc == 137 and self.seconds >= self.limit):
            return False, "hung: killed after %.1f s%s" % (self.seconds, rss)
        if self.rc >= 128:
            return False, "crashed: signal %d after %.1f s%s" % (self.rc - 128, self.seconds, rss)
        if self.rc in (126, 127, -1):
            return False, "could not run stampcam (status %d)" % self.rc
        return True, "exit %d in %.2f s,%s" % (self.rc, self.seconds, rss)


def read(folder, name, default):
    try:
        with open(os.path.join(folder, os.fsencode(name)), "rb") as f:
            return f.read().strip()
    except FileNotFoundError:
        return default


def raw_control(lines):
    """Lines carrying raw control bytes (ESC and the like): a file name must not drive a terminal."""
    return [l for l in lines if re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", l)]


def check_stderr(rep, kind, title, case, run, name_path, output, whole_run=True):
    """Failed input: exactly one line naming it, not a warning. Done: no error line naming it,
    and the required warning when the case has one (for exif-huge: when the MakerNote did not
    survive), and the failure line saying what case["say"] says when the case has that.
    whole_run: the run is this input's alone, so none of its lines may carry raw control bytes."""
    runs = name_runs(name_path)
    naming = [l for l in run.lines if names(l, runs)]
    problems = []
    raw = raw_control(run.lines) if whole_run else []
    if raw:
        problems.append("raw control bytes on stderr: " + safe(raw[0]))
    if case["expect"] == "fail":
        if len(naming) != 1:
            problems.append("%d lines name it%s" % (len(naming), (": " + " | ".join(safe(l) for l in naming[:3]))
                                                    if naming else ""))
        elif is_warning(naming[0]):
            problems.append("its only line is a warning: " + safe(naming[0]))
    else:
        errors = [l for l in naming if not is_warning(l)]
        if errors:
            problems.append("error lines for a photo that must be done: " + " | ".join(safe(l) for l in errors[:3]))
        if case.get("warn") and not any(re.search(case["warn"].encode(), l) for l in naming) \
                and not (case.get("exif") and maker_note_kept(output)):
            problems.append("no warning matching /%s/ (stderr: %s)" % (case["warn"], " | ".join(
                safe(l) for l in naming[:3]) or "nothing naming it"))
    if case.get("say") and len(naming) == 1 and not re.search(case["say"].encode(), after_name(naming[0], runs)):
        problems.append("the message does not say /%s/: %s" % (case["say"], safe(naming[0])))
    detail = "; ".join(problems) if problems else (safe(naming[0]) if naming else "")
    rep.check(kind, title, not problems, detail)


def check_output(rep, kind, title, case, out, rel, others_ok=()):
    """Done: out/rel present, a valid JPEG (and with EXIF for exif cases). Fail or none: absent."""
    present = files_under(out)
    target = os.path.join(out, rel)
    if case["expect"] == "done":
        if rel not in present:
            got = ", ".join(safe(p) for p in present if p not in others_ok)
            rep.check(kind, title, False, "no output" + (" (found: %s)" % got if got else ""))
            return
        if not stat.S_ISREG(os.lstat(target).st_mode):  # never hand djpeg a FIFO
            rep.check(kind, title, False, "output is not a regular file")
            return
        problem = jpeg_problem(target) or (exif_problem(target) if case.get("exif") else None)
        rep.check(kind, title, problem is None, problem or "valid JPEG")
    else:
        mine = [p for p in present if p == rel or p.startswith(rel + b"/")]
        rep.check(kind, title, not mine, ("written: " + ", ".join(safe(p) for p in mine)) if mine else "no output")


def report(work, limit, rss_limit_mb):
    with open(os.path.join(work, b"work", b"manifest.json")) as f:
        cases = json.load(f)["cases"]
    inputs = os.path.join(work, b"in")
    rep = Report()

    print("# each input on its own: stampcam apply IN/NAME -o OUT")
    for c in cases:
        if c["kind"] == "dir":
            continue
        name = bytes.fromhex(c["name"])
        run = Run(os.path.join(work, b"runs", c["id"].encode()), limit)
        failed_before = len(rep.failed)
        ok, detail = run.verdict()
        rep.check("no crash, no hang", "%s: no crash, no hang" % c["id"], ok, detail)
        rep.check("exit code", "%s: exit %d" % (c["id"], c["code"]), run.rc == c["code"], "exit %d" % run.rc)
        check_stderr(rep, "stderr", "%s: stderr" % c["id"], c, run, name, os.path.join(run.out, name))
        check_output(rep, "output", "%s: output" % c["id"], c, run.out, name)
        if len(rep.failed) > failed_before:
            print("#   %s (must be %s): %s" % (c["id"], c["expect"], c["attack"]))

    print("# the whole folder at once: stampcam apply -j 2 IN -o OUT")
    batch = Run(os.path.join(work, b"batch"), limit)
    ok, detail = batch.verdict()
    rep.check("batch", "batch: no crash, no hang", ok, detail)
    codes = {c["code"] for c in cases if c["expect"] == "fail"}
    want = codes.pop() if len(codes) == 1 else 65  # README: the failures' common code, or 65
    rep.check("batch", "batch: exit %d" % want, batch.rc == want, "exit %d" % batch.rc)
    expected = [bytes.fromhex(c["name"]) for c in cases if c["expect"] == "done"]
    for c in cases:
        name = bytes.fromhex(c["name"])
        check_stderr(rep, "batch stderr", "batch %s: stderr" % c["id"], c, batch, name,
                     os.path.join(batch.out, name), whole_run=False)
        check_output(rep, "batch output", "batch %s: output" % c["id"], c, batch.out, name, expected)
    raw = raw_control(batch.lines)
    rep.check("batch", "batch: no raw control bytes on stderr", not raw, safe(raw[0]) if raw else "")
    # `.stampcam` marks an output folder (so a later run over its parent does not stamp it again).
    names_of_cases = {bytes.fromhex(c["name"]) for c in cases} | {b".stampcam"}
    stray = [p for p in files_under(batch.out) if p.split(b"/")[0] not in names_of_cases]
    rep.check("batch", "batch: no stray files in the output folder (temp files, unknown names)", not stray,
              ", ".join(safe(p) for p in stray[:10]) + (" ..." if len(stray) > 10 else ""))
    rss = batch.rss_mb
    rep.check("batch", "batch: peak RSS under %d MB" % rss_limit_mb, rss is not None and rss < rss_limit_mb,
              "peak RSS %.1f MB" % rss if rss is not None else "not measured")

    print("# the inputs")
    with open(os.path.join(work, b"before.json")) as f:
        before = json.load(f)
    after = snapshot(inputs)
    changed = sorted(set(before) | set(after), key=lambda k: k)
    changed = [k for k in changed if before.get(k) != after.get(k)]
    rep.check("inputs", "inputs: byte-identical after all runs (%d entries, sha256)" % len(before), not changed,
              "; ".join("%s: %s -> %s" % (safe(bytes.fromhex(k)), before.get(k, "absent")[:20],
                                          after.get(k, "absent")[:20]) for k in changed[:5]))

    print()
    if rep.failed:
        by_kind = {}
        for kind, title in rep.failed:
            label = title.split(":")[0].replace("batch ", "") if kind != "batch" else title.split(": ", 1)[1]
            by_kind.setdefault(kind, []).append(label)
        print("failed checks by kind:")
        for kind, ids in by_kind.items():
            print("  %-18s %3d  %s" % (kind, len(ids), "; ".join(ids) if kind == "batch" else ", ".join(ids)))
    if rss is not None:
        print("peak RSS of the whole set at -j 2: %.1f MB (limit %d MB)" % (rss, rss_limit_mb))
    print("hostile: %d passed, %d failed" % (rep.passed, len(rep.failed)))
    return 0 if not rep.failed else 1


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "snapshot":
        json.dump(snapshot(os.fsencode(sys.argv[2])), sys.stdout, indent=0, sort_keys=True)
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "report":
        return report(os.fsencode(sys.argv[2]), float(os.environ.get("HOSTILE_TIMEOUT", "60")),
                      int(os.environ.get("HOSTILE_RSS_MB", "150")))
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
