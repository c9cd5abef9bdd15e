#!/usr/bin/python3
"""How pgcodec.Codec.decode builds its str, measured (issue 14).

For 100- and 1000-character strings in UTF8, SJIS, WIN1252, LATIN1 and plain
ASCII text (decoded as UTF8), the best-of-5 time per call of:

  pgcodec        Codec.decode as shipped: the library decodes to UTF-8 in a scratch
                 buffer; ASCII is then copied into a compact str, other text goes
                 through PyUnicode_DecodeUTF8; single-byte encodings skip UTF-8 and
                 fill the str from a 256-entry table made once from the library
  via UTF-8      Codec._decode_via_utf8: the library, then PyUnicode_DecodeUTF8
                 always (all that the limited API allows)
  filled         Codec._decode_filled: the library, then the module fills the
                 UCS1/UCS2/UCS4 str itself from the known-valid UTF-8
  limited API    _pgcodec_limited.decode(id, data): decode alone, built with
                 Py_LIMITED_API (target pgcodec_python_limited; the column is left
                 out when it is not built)
  bytes.decode   data.decode(<Python codec>) as psycopg/asyncpg do it today
                 (utf-8, shift_jis, cp1252, latin-1)

and for the other direction Codec.encode vs str.encode(<Python codec>), on a
fresh str each call (text[1:]: a str caches its UTF-8 form once asked for it,
which would flatter both). Ratios: below 1.00, pgcodec is faster.

Run from the build tree:
  PYTHONPATH=build/dev/python /usr/bin/python3 bench/python/str_paths.py [--repeat 7] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import timeit

import pgcodec

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(pgcodec.__file__)), "limited"))
try:
    import _pgcodec_limited as limited
except ImportError:
    limited = None


def text_for(kind: str, n: int, rng: random.Random) -> str:
    if kind == "UTF8":  # the seed's experiment: code points uniform in U+0001..U+0FFF
        pool = [chr(c) for c in range(1, 0x1000) if not 0xD800 <= c <= 0xDFFF]
    elif kind == "SJIS":  # what both PostgreSQL's SJIS and Python's shift_jis have
        sjis = pgcodec.lookup("SJIS")
        cands = [chr(c) for c in list(range(0x3041, 0x3097)) + list(range(0x30A1, 0x30F7)) + list(range(0x4E00, 0x5200))]
        pool = []
        for ch in cands:
            try:
                if sjis.encode(ch) == ch.encode("shift_jis"):
                    pool.append(ch)
            except UnicodeError:
                pass
    elif kind == "WIN1252":
        pool = [chr(c) for c in range(0x20, 0x7F)] + list("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ") + \
               [chr(c) for c in range(0xA0, 0x100)]
    elif kind == "LATIN1":
        pool = [chr(c) for c in range(0x20, 0x7F)] + [chr(c) for c in range(0xA0, 0x100)]
    else:  # ASCII
        pool = [chr(c) for c in range(0x20, 0x7F)]
    return "".join(rng.choice(pool) for _ in range(n))


CASES = [  # (row label, pgcodec encoding, Python codec, text kind)
    ("UTF8", "UTF8", "utf-8", "UTF8"),
    ("SJIS", "SJIS", "shift_jis", "SJIS"),
    ("WIN1252", "WIN1252", "cp1252", "WIN1252"),
    ("LATIN1", "LATIN1", "latin-1", "LATIN1"),
    ("ASCII (as UTF8)", "UTF8", "utf-8", "ASCII"),
]


def best_ns(stmts: dict[str, str], env: dict, repeat: int) -> dict[str, float]:
    """Best time per call of each statement, the runs interleaved so that a
    busy moment of a shared machine hits every column alike."""
    timers = {k: timeit.Timer(s, globals=env) for k, s in stmts.items()}
    numbers = {k: max(t.autorange()[0], 1) for k, t in timers.items()}
    best = {k: float("inf") for k in stmts}
    for _ in range(repeat):
        for k, t in timers.items():
            best[k] = min(best[k], t.timeit(numbers[k]) / numbers[k] * 1e9)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7, help="best of this many runs (default 7)")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()
    rng = random.Random(14)
    rows = []
    for label, enc, pyname, kind in CASES:
        codec = pgcodec.lookup(enc)
        for n in (100, 1000):
            text = text_for(kind, n, rng)
            data = codec.encode(text)
            assert codec.decode(data) == text == data.decode(pyname) == codec._decode_via_utf8(data) \
                == codec._decode_filled(data)
            assert text.encode(pyname) == data
            env = {"codec": codec, "data": data, "text": text, "pyname": pyname,
                   "dec": codec.decode, "via": codec._decode_via_utf8, "fill": codec._decode_filled,
                   "enc": codec.encode, "limited": limited, "cid": codec.id}
            r = {"case": label, "chars": n, "bytes": len(data)}
            stmts = {"pgcodec": "dec(data)", "via_utf8": "via(data)", "filled": "fill(data)",
                     "pydecode": "data.decode(pyname)", "pgencode": "enc(text[1:])",
                     "pyencode": "text[1:].encode(pyname)"}
            if limited:
                assert limited.decode(codec.id, data) == text
                stmts["limited"] = "limited.decode(cid, data)"
            r.update(best_ns(stmts, env, args.repeat))
            rows.append(r)
            if not args.markdown:
                print(f"{label:16} {n:5} chars {len(data):5} B  decode: pgcodec {r['pgcodec']:7.0f} ns  "
                      f"via UTF-8 {r['via_utf8']:7.0f} ns  filled {r['filled']:7.0f} ns  "
                      f"limited {r.get('limited', float('nan')):7.0f} ns  bytes.decode {r['pydecode']:7.0f} ns   "
                      f"encode: pgcodec {r['pgencode']:7.0f} ns  str.encode {r['pyencode']:7.0f} ns", flush=True)
    if args.markdown:
        print(f"<!-- Generated by bench/python/str_paths.py (Python {sys.version.split()[0]}); best of {args.repeat}. -->")
        print("| text | chars | bytes | decode pgcodec | via UTF-8 | filled | limited API | bytes.decode "
              "| pgcodec / bytes.decode | limited API / pgcodec | encode pgcodec | str.encode | pgcodec / str.encode |")
        print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
        for r in rows:
            print(f"| {r['case']} | {r['chars']} | {r['bytes']} | {r['pgcodec']:.0f} ns | {r['via_utf8']:.0f} ns "
                  f"| {r['filled']:.0f} ns | {r.get('limited', float('nan')):.0f} ns "
                  f"| {r['pydecode']:.0f} ns | {r['pgcodec'] / r['pydecode']:.2f} "
                  f"| {r.get('limited', float('nan')) / r['pgcodec']:.2f} "
                  f"| {r['pgencode']:.0f} ns | {r['pyencode']:.0f} ns | {r['pgencode'] / r['pyencode']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
