"""The Python section of bench/RESULTS.md: one block between two markers.

ci/bench --python writes the block (bench/python/seed.py makes it) and
bench/report.py carries it over when ci/bench regenerates the rest of the
report, so each run replaces only its own part. The markers and the place
of the block are written here once; both callers use these functions.

    results_section.py splice --into RESULTS.md --section SECTION.md --out NEW.md

reads RESULTS.md, puts SECTION.md's block in place of the old one (or, the
first time, before the heading named by ANCHOR, else at the end) and writes
NEW.md through a temporary file and a rename. Exits non-zero, writing
nothing, if SECTION.md holds no well-formed block.
"""

from __future__ import annotations

import argparse
import os
import sys

BEGIN = "<!-- python-seed:begin -->"
END = "<!-- python-seed:end -->"
# A new block goes in front of this heading: right after the C++ seed
# section, whose experiment the Python one repeats with real drivers.
ANCHOR = "## pgcodec per kernel"


def extract(text: str) -> str | None:
    """The block with both markers, or None if there is none. More than one
    block, or markers out of order, is an error (ValueError): the file was
    edited by hand and a silent choice would lose data."""
    if text.count(BEGIN) != text.count(END) or text.count(BEGIN) > 1:
        raise ValueError(f"expected at most one {BEGIN} ... {END} block")
    start = text.find(BEGIN)
    if start < 0:
        return None
    end = text.find(END, start)
    if end < 0:
        raise ValueError(f"{BEGIN} without a following {END}")
    return text[start:end + len(END)]


def place(text: str, block: str) -> str:
    """text with its block replaced by `block`, or `block` inserted before
    ANCHOR (else appended) when text has none."""
    old = extract(text)
    if old is not None:
        return text.replace(old, block.strip("\n"), 1)
    block = block.strip("\n") + "\n\n"
    at = text.find("\n" + ANCHOR + "\n")
    if at >= 0:
        return text[:at + 1] + block + text[at + 1:]
    return text.rstrip("\n") + "\n\n" + block


def write_atomically(path: str, text: str) -> None:
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("splice", help="replace the block of --into with the one in --section")
    sp.add_argument("--into", required=True, help="the current report (may be missing: then the block alone)")
    sp.add_argument("--section", required=True, help="a file holding the new block")
    sp.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    try:
        with open(a.section, encoding="utf-8") as f:
            block = extract(f.read())
        if block is None:
            raise ValueError(f"{a.section} has no {BEGIN} ... {END} block")
        try:
            with open(a.into, encoding="utf-8") as f:
                text = f.read()
        except FileNotFoundError:
            text = ""
        new = place(text, block)
    except (OSError, ValueError) as e:
        print(f"results_section.py: {e}", file=sys.stderr)
        return 1
    write_atomically(a.out, new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
