#!/usr/bin/python3
"""The atlas in a real browser: renders docs/atlas/index.html in headless
Chromium, keeps a screenshot in the build tree and checks the DOM Chromium
built against atlas.json.

  check_atlas.py ATLAS_DIR WORK_DIR [CHROMIUM]

Checks: every encoding x reference of atlas.json has its cell, with its
count; the colours follow the counts (zero is the legend's "reads and writes
all" colour, and a larger count is never lighter); the SJIS row recommends
cp932, not shift_jis; the page states the rule behind "closest"; each
driver's advice follows the counts (driver_checks). Exits 0 when
all hold, 1 with one line per failure otherwise, 2 when Chromium cannot run.
Standard library only.
"""

import html.parser
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

WINDOW = (1600, 4000)


def luma(color):
    """Rec. 601 luma of #rrggbb, 0..255."""
    m = re.fullmatch(r"#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})", color.strip().lower())
    if not m:
        raise ValueError("not a #rrggbb colour: " + color)
    r, g, b = (int(x, 16) for x in m.groups())
    return 0.299 * r + 0.587 * g + 0.114 * b


def background(style):
    m = re.search(r"background:\s*(#[0-9a-fA-F]{6})", style or "")
    return m.group(1).lower() if m else None


class Page(html.parser.HTMLParser):
    """Rows of table#heat (cells with their attributes and text), the
    legend's spans, and paragraph ids."""

    def __init__(self):
        super().__init__()
        self.rows = {}         # encoding -> {"use": attrs+text, "refs": [attrs]}
        self.legend = []       # (text, colour)
        self.ids = {}          # id -> text
        self._row = None
        self._cell = None
        self._in_heat = False
        self._in_legend = False
        self._span = None
        self._id = None
        self._text = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "heat":
            self._in_heat = True
        elif tag == "p" and "legend" in (a.get("class") or "").split():
            self._in_legend = True
        elif tag == "span" and self._in_legend:
            self._span = (a, [])
        elif tag == "p" and a.get("id"):
            self._id, self._text = a["id"], []
        elif self._in_heat and tag == "tr" and "data-encoding" in a:
            self._row = {"use": None, "refs": []}
            self.rows[a["data-encoding"]] = self._row
        elif self._row is not None and tag == "td":
            self._cell = (a, [])

    def handle_endtag(self, tag):
        if tag == "table" and self._in_heat:
            self._in_heat = False
        elif tag == "span" and self._span:
            self.legend.append(("".join(self._span[1]), background(self._span[0].get("style"))))
            self._span = None
        elif tag == "p":
            self._in_legend = False
            if self._id:
                self.ids[self._id] = "".join(self._text)
                self._id = None
        elif tag == "tr":
            self._row = None
        elif tag == "td" and self._cell:
            a, text = self._cell
            a = dict(a, text="".join(text))
            classes = (a.get("class") or "").split()
            if "use" in classes:
                self._row["use"] = a
            elif "ref" in classes:
                self._row["refs"].append(a)
            self._cell = None

    def handle_data(self, data):
        if self._cell:
            self._cell[1].append(data)
        if self._span:
            self._span[1].append(data)
        if self._id:
            self._text.append(data)


def chromium(binary, profile, *args):
    return subprocess.run([binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--user-data-dir=" + profile, *args],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    atlas_dir, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    binary = sys.argv[3] if len(sys.argv) == 4 else shutil.which("chromium")
    if not binary:
        print("check_atlas: no chromium (Debian package chromium; ci/setup installs it)", file=sys.stderr)
        return 2
    os.makedirs(work, exist_ok=True)
    url = "file://" + os.path.join(atlas_dir, "index.html")
    shot = os.path.join(work, "atlas.png")
    if os.path.exists(shot):
        os.remove(shot)
    profile = tempfile.mkdtemp(prefix="pgcodec-atlas-chromium-")
    try:
        r = chromium(binary, profile, "--screenshot=" + shot, "--window-size=%d,%d" % WINDOW,
                     "--hide-scrollbars", url)
        if r.returncode != 0:
            print("check_atlas: chromium --screenshot failed:\n" + r.stderr.decode(errors="replace"), file=sys.stderr)
            return 2
        r = chromium(binary, profile, "--dump-dom", url)
        if r.returncode != 0 or not r.stdout:
            print("check_atlas: chromium --dump-dom failed:\n" + r.stderr.decode(errors="replace"), file=sys.stderr)
            return 2
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    dom = r.stdout.decode("utf-8")
    with open(os.path.join(work, "atlas.dom.html"), "w", encoding="utf-8") as f:
        f.write(dom)

    failures = []
    size = png_size(shot) if os.path.exists(shot) else None
    if size != WINDOW:
        failures.append("screenshot %s: PNG of %s, expected %dx%d" % (shot, size, *WINDOW))
    elif os.path.getsize(shot) < 50_000:
        failures.append("screenshot %s is only %d bytes: nothing rendered?" % (shot, os.path.getsize(shot)))

    with open(os.path.join(atlas_dir, "atlas.json"), encoding="utf-8") as f:
        atlas = json.load(f)
    page = Page()
    page.feed(dom)

    rule = page.ids.get("closest-rule", "")
    if not rule.startswith("Closest reference:") or rule != atlas.get("closest_rule"):
        failures.append("the page does not state the closest rule of atlas.json: %r" % rule)

    zero = [c for t, c in page.legend if t.startswith("0")]
    if len(zero) != 1:
        failures.append("legend: no single zero entry: %r" % page.legend)
    zero = zero[0] if zero else None

    cells = []  # (count, colour, where)
    for e in atlas["encodings"]:
        name = e["name"]
        row = page.rows.get(name)
        if row is None:
            failures.append("%s: no row" % name)
            continue
        want = {r["name"]: r for r in e["references"]}
        got = {c.get("data-reference"): c for c in row["refs"]}
        if len(row["refs"]) != len(got):
            failures.append("%s: a reference has two cells" % name)
        for missing in sorted(set(want) - set(got)):
            failures.append("%s x %s: no cell" % (name, missing))
        for extra in sorted(set(got) - set(want)):
            failures.append("%s x %s: a cell atlas.json does not have" % (name, extra))
        for ref, r in want.items():
            c = got.get(ref)
            if c is None:
                continue
            n = r["reads_postgres_output"]["wrong"] + r["writes_for_postgres"]["wrong"]
            if int(c.get("data-wrong", -1)) != n or n != r["driver_wrong"]:
                failures.append("%s x %s: cell says %s wrong, atlas.json %d" % (name, ref, c.get("data-wrong"), n))
            colour = background(c.get("style"))
            if colour is None:
                failures.append("%s x %s: no background colour" % (name, ref))
                continue
            cells.append((n, colour, "%s x %s" % (name, ref)))
        if row["refs"] and e["closest_reference"] != row["refs"][0].get("data-reference"):
            failures.append("%s: closest is %s but the first cell is %s"
                            % (name, e["closest_reference"], row["refs"][0].get("data-reference")))
        use = row["use"]
        if use is None or use["text"] != e["recommendation"]["line"]:
            failures.append("%s: the recommendation on the page is not atlas.json's: %r" % (name, use and use["text"]))

    for n, colour, where in cells:
        if n == 0 and colour != zero:
            failures.append("%s: 0 wrong but coloured %s, not the zero colour %s" % (where, colour, zero))
        if n > 0 and colour == zero:
            failures.append("%s: %d wrong but coloured as zero" % (where, n))
    cells.sort()
    for (n1, c1, w1), (n2, c2, w2) in zip(cells, cells[1:]):
        if n2 > n1 and luma(c2) > luma(c1) + 1e-9:
            failures.append("%s (%d, %s) is lighter than %s (%d, %s)" % (w2, n2, c2, w1, n1, c1))
        if n2 == n1 and c1 != c2:
            failures.append("%s and %s: both %d wrong, coloured %s and %s" % (w1, w2, n1, c1, c2))

    sjis = page.rows.get("SJIS")
    if sjis is None or sjis["use"] is None:
        failures.append("SJIS: no recommendation")
    else:
        u = sjis["use"]
        if u.get("data-codec") != "cp932" or not u["text"].startswith("use Python codec cp932 "):
            failures.append("SJIS recommends %r, not cp932: %s" % (u.get("data-codec"), u["text"]))
        order = [c.get("data-reference") for c in sjis["refs"]]
        if "python-shift_jis" in order and order.index("python-cp932") > order.index("python-shift_jis"):
            failures.append("SJIS: shift_jis ranks above cp932: %s" % order)

    failures += driver_checks(atlas, atlas_dir)

    for f in failures:
        print("check_atlas: " + f)
    print("check_atlas: %d encodings, %d cells, screenshot %s (%s bytes): %s"
          % (len(page.rows), len(cells), shot, os.path.getsize(shot) if os.path.exists(shot) else "no",
             "FAILED" if failures else "ok"))
    return 1 if failures else 0


DRIVERS = ("psycopg3", "psycopg2", "asyncpg")


def driver_checks(atlas, atlas_dir):
    """atlas.json's per-driver advice follows its own counts, and atlas.md
    shows it: a driver keeps its codec only where that codec gets nothing
    wrong, refusals included; asyncpg's own decoding only on UTF8. Python's
    shift_jis (psycopg 3's and asyncpg's SJIS codec) refuses characters
    PostgreSQL's SJIS writes (U+2460 ...): they count as miswrites."""
    failures = []
    with open(os.path.join(atlas_dir, "atlas.md"), encoding="utf-8") as f:
        md = f.read()
    for e in atlas["encodings"]:
        name = e["name"]
        advice = e.get("driver_advice", {})
        line = next((l for l in md.splitlines() if l.startswith("- **%s**: psycopg 3: " % name)), None)
        if line is None:
            failures.append("%s: no driver line in atlas.md" % name)
        for d in DRIVERS:
            a = advice.get(d)
            if not a:
                failures.append("%s: no advice for %s" % (name, d))
                continue
            if line is not None and a.replace("|", "\\|") not in line:
                failures.append("%s: atlas.md does not show the %s advice" % (name, d))
            ref = next((r for r in e["references"] if d in r["used_by"]), None)
            exact = ref is not None and ref["driver_wrong"] == 0 and ref["ascii_wrong"]["count"] == 0
            keeps = a.startswith("its own")
            if d == "asyncpg" and name != "UTF8":
                exact = False
            if keeps != exact and not (d == "asyncpg" and name == "UTF8"):
                failures.append("%s x %s: advice %r, but its codec %s" % (
                    name, d, a, "is exact" if exact else "is not (or there is none)"))
            if not keeps and "pgcodec" not in a:
                failures.append("%s x %s: advice names no way out: %r" % (name, d, a))
    sjis = next((e for e in atlas["encodings"] if e["name"] == "SJIS"), None)
    shift_jis = sjis and next((r for r in sjis["references"] if r["name"] == "python-shift_jis"), None)
    if shift_jis is None:
        failures.append("SJIS: no python-shift_jis reference")
    else:
        w = shift_jis["writes_for_postgres"]
        if w.get("refused", 0) == 0 or w["wrong"] < w["refused"]:
            failures.append("SJIS x python-shift_jis: its refusals are not counted as miswrites: %r" % w)
        if not sjis["driver_advice"]["psycopg3"].startswith("use pgcodec"):
            failures.append("SJIS: psycopg 3 (shift_jis) is not told to use pgcodec")
    return failures


if __name__ == "__main__":
    sys.exit(main())
