#!/usr/bin/python3
"""pgcodec's Python module against CPython's own codecs, both directions.

For each PostgreSQL encoding CPython has a codec for, a text of its script
that is not one sentence repeated (words drawn at random from a vocabulary
made at random from the characters both mappings agree on, with spaces and
punctuation), cut to 8 B, 100 B, 1 KB, 64 KB, 1 MB and 16 MB of encoded
bytes, and timed:

  decode  pgcodec.lookup(E).decode(b)   against CPython's fastest of
          b.decode(py) and codecs.lookup(py).decode(b)
  encode  pgcodec.lookup(E).encode(s)   against s.encode(py) and
          codecs.lookup(py).encode(s)

Below 1 MB a size is not one text but a rotation of distinct ones, cut one
after another from the row's long text, 1 MiB of them in all (131,072 texts
of 8 bytes, 16 of 64 KB), each call taking the next: a decoder called on
the same 64 KB again and again had its branches learnt by the CPU's branch
predictor, and ran up to twice as fast as on text it had not seen (a
driver never decodes the same value twice in a row). Both must give the
same str / bytes first, for every text (the run fails otherwise). Time
per call: the best of --repeat rounds, each timing pgcodec and CPython's
two routes in turn (interleaved: load on the shared machine falls on all
three alike), a pass over the rotation repeated long enough to take
--min-time seconds each. Ratio = CPython's time ÷ pgcodec's: above 1,
pgcodec is faster.

    cmake --preset release && cmake --build build/release --target pgcodec_python
    PYTHONPATH=build/release/python /usr/bin/python3 bench/python/codecs_vs_cpython.py \
        [--sizes 8,100,1K,64K,1M,16M] [--only SJIS,GBK] [--repeat 5] [--min-time 0.05] \
        [--markdown bench/python/RESULTS.md] [--json FILE] [--smoke]

The committed table measures the release build: what pip installs (python/
packaging/pgcodec_build.py configures CMAKE_BUILD_TYPE=Release, -O3 with
NDEBUG). The dev preset's module keeps assertions, CPython's included.

--smoke: every row at the three smallest sizes, one short run each (a test
that the script works, no figures worth keeping). --markdown writes the
table (through a temporary file and a rename) with the command and the
machine that made it.
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import platform
import random
import sys
import tempfile
import time
import timeit

import pgcodec

# Each row: PostgreSQL's name, CPython's codec, the kind of text, and the
# groups its characters are drawn from: (share of the characters, code point
# ranges, and optionally a test on CPython's bytes for the character). Only
# characters pgcodec and CPython encode to the same bytes, and decode back,
# are kept. The shares approximate real text (kana and common kanji in
# Japanese, a few accented letters in Western prose); "random over the
# repertoire" rows take every character alike, rare ones included.
def _code(py: str):
    return lambda ch: int.from_bytes(ch.encode(py), "big")


def _between(py: str, lo: int, hi: int):
    code = _code(py)
    return lambda ch: lo <= code(ch) <= hi


CJK = [(0x4E00, 0x9FA0)]
HIRAGANA = [(0x3041, 0x3097)]
KATAKANA = [(0x30A1, 0x30FB)]
HALF_KANA = [(0xFF61, 0xFF9F)]
JA_PUNCT = [(0x3001, 0x3003), (0x300C, 0x3010), (0xFF01, 0xFF1F)]
ZH_PUNCT = [(0x3001, 0x3003), (0xFF0C, 0xFF0D), (0xFF1F, 0xFF20)]
HANGUL = [(0xAC00, 0xD7A4)]
LATIN = [(0x61, 0x7B)]
ACCENTED = [(0xE0, 0x100)]


def japanese(py: str):  # JIS X 0208 level-1 kanji (SJIS 889F..9872)
    return [(0.45, HIRAGANA, None), (0.10, KATAKANA, None), (0.05, JA_PUNCT, None),
            (0.40, CJK, lambda ch: 0x889F <= _code("cp932")(ch) <= 0x9872)]


def western(extra):
    return [(0.93, LATIN, None), (0.05, ACCENTED, None), (0.02, extra, None)]


ROWS = [
    ("SJIS", "cp932", "kanji and kana", japanese("cp932")),
    ("SJIS", "cp932", "kana, half-width katakana", [(0.4, HIRAGANA, None), (0.4, HALF_KANA, None),
                                                    (0.2, CJK, lambda ch: 0x889F <= _code("cp932")(ch) <= 0x9872)]),
    ("SJIS", "cp932", "random over the repertoire", [(1, [(0xA0, 0x10000)], None)]),
    ("EUC_JP", "euc_jp", "kanji and kana", japanese("euc_jp")),
    ("EUC_JP", "euc_jp", "random over the repertoire", [(1, [(0xA0, 0x10000)], None)]),
    ("EUC_JIS_2004", "euc_jis_2004", "kanji and kana", japanese("euc_jis_2004")),
    ("SHIFT_JIS_2004", "shift_jis_2004", "kanji and kana", japanese("shift_jis_2004")),
    ("GBK", "gbk", "Chinese prose", [(0.92, CJK, _between("gbk", 0xB0A1, 0xD7FE)), (0.08, ZH_PUNCT, None)]),
    ("GB18030", "gb18030", "Chinese prose", [(0.92, CJK, _between("gb18030", 0xB0A1, 0xD7FE)),
                                            (0.08, ZH_PUNCT, None)]),
    ("GB18030", "gb18030", "random over the repertoire", [(1, [(0xA0, 0xD800), (0xE000, 0xFFFE), (0x10000, 0x10FFFF)], None)]),
    ("BIG5", "big5", "Traditional Chinese prose", [(0.92, CJK, _between("big5", 0xA440, 0xC67E)), (0.08, ZH_PUNCT, None)]),
    ("UHC", "cp949", "hangul with spaces", [(1, HANGUL, _between("cp949", 0xB0A1, 0xC8FE))]),
    ("UHC", "cp949", "random over the repertoire", [(1, [(0xA0, 0x10000)], None)]),
    ("EUC_KR", "euc_kr", "hangul with spaces", [(1, HANGUL, None)]),
    ("JOHAB", "johab", "hangul with spaces", [(1, HANGUL, None)]),
    ("WIN1252", "cp1252", "Western prose, curly quotes and euro",
     western([(0x2018, 0x201A), (0x201C, 0x201E), (0x20AC, 0x20AD), (0x2026, 0x2027), (0x2013, 0x2015)])),
    ("LATIN1", "latin_1", "Western prose", western([(0xA0, 0xC0)])),
    ("LATIN2", "iso8859_2", "Central European prose", western([(0x100, 0x180)])),
    ("LATIN9", "iso8859_15", "Western prose and euro", western([(0x20AC, 0x20AD)])),
    ("ISO_8859_5", "iso8859_5", "Cyrillic", [(1, [(0x430, 0x450)], None)]),
    ("ISO_8859_7", "iso8859_7", "Greek", [(1, [(0x3B1, 0x3CA)], None)]),
    ("KOI8R", "koi8_r", "Cyrillic", [(1, [(0x430, 0x450)], None)]),
    ("WIN1251", "cp1251", "Cyrillic", [(1, [(0x430, 0x450)], None)]),
    ("WIN874", "cp874", "Thai", [(1, [(0xE01, 0xE3B), (0xE40, 0xE5C)], None)]),
    ("UTF8", "utf_8", "mixed scripts", [(0.5, LATIN, None), (0.1, ACCENTED, None), (0.1, [(0x430, 0x450)], None),
                                        (0.15, CJK, None), (0.1, HANGUL, None), (0.05, [(0x1F600, 0x1F650)], None)]),
    ("UTF8", "utf_8", "kanji and kana", japanese("cp932")),
]
PUNCT = " ,.;:!?"
SIZES = {"8": 8, "100": 100, "1K": 1000, "64K": 64 * 1024, "1M": 1 << 20, "16M": 16 << 20}


def agreed(name: str, py: str, ranges, keep, rng: random.Random, want: int = 3000) -> list[str]:
    """Characters of `ranges` that pgcodec and CPython encode alike (and
    that `keep` accepts)."""
    c = pgcodec.lookup(name)
    pool = [cp for lo, hi in ranges for cp in range(lo, hi)]
    rng.shuffle(pool)
    out = []
    for cp in pool:
        ch = chr(cp)
        try:
            mine = c.encode(ch)
            theirs = ch.encode(py)
            back = c.decode(mine)
            kept = keep is None or keep(ch)
        except UnicodeError:  # JOHAB: PostgreSQL writes codes it then rejects
            continue
        if mine == theirs and len(mine) > 0 and back == ch and kept:
            out.append(ch)
            if len(out) >= want:
                break
    return out


def make_text(name: str, py: str, groups, nbytes: int, seed: int) -> str:
    """About nbytes of encoded text: words of 1..8 characters from a random
    vocabulary of 4,000, separated by spaces and punctuation, ASCII digits now
    and then: varied enough that no branch predictor learns it."""
    rng = random.Random(seed)
    chars, weights = [], []
    for share, ranges, keep in groups:
        got = agreed(name, py, ranges, keep, rng)
        if not got:
            raise SystemExit(f"codecs_vs_cpython: no character of a group of {name}/{py} agrees; fix the row")
        chars += got
        weights += [share / len(got)] * len(got)
    if len(chars) < 20:
        raise SystemExit(f"codecs_vs_cpython: only {len(chars)} characters of {name}/{py} agree; fix the row")
    vocab = ["".join(rng.choices(chars, weights, k=rng.randrange(1, 9))) for _ in range(4000)]
    vocab += [str(rng.randrange(10 ** rng.randrange(1, 5))) for _ in range(100)]
    seps = [" "] * 12 + [p + " " for p in PUNCT[1:]]
    per_word = sum(len(w.encode(py)) for w in vocab[:200]) / 200 + 1.2
    n = int(nbytes / per_word) + 8
    words = rng.choices(vocab, k=n)
    sep = rng.choices(seps, k=n)
    text = "".join(w + s for w, s in zip(words, sep))
    data = text.encode(py)
    # Cut to nbytes at a character boundary.
    if len(data) > nbytes:
        lo, hi = 0, len(text)
        while lo < hi:  # the longest prefix that fits
            mid = (lo + hi + 1) // 2
            if len(text[:mid].encode(py)) <= nbytes:
                lo = mid
            else:
                hi = mid - 1
        text = text[:lo]
    return text


def loop_size(t: timeit.Timer, min_time: float) -> int:
    """Calls per run: enough for a run of at least min_time."""
    number = 1
    while True:
        elapsed = t.timeit(number)
        if elapsed >= min_time:
            return number
        number = max(number * 2, int(number * min_time / max(elapsed, 1e-9) * 1.2))


def best_interleaved(stmts: list, repeat: int, min_time: float) -> list[float]:
    """Seconds per call of each statement: the best of `repeat` rounds, each
    round one run of every statement in turn, so that a burst of load on a
    shared machine falls on all of them alike, not on one."""
    timers = [timeit.Timer(s) for s in stmts]
    numbers = [loop_size(t, min_time) for t in timers]
    bests = [float("inf")] * len(stmts)
    for _ in range(repeat):
        for k, (t, number) in enumerate(zip(timers, numbers)):
            bests[k] = min(bests[k], t.timeit(number) / number)
    return bests


# Distinct texts a size rotates over: this many encoded bytes of them.
ROTATION = 1 << 20


def pieces(text: str, py: str, size: int) -> list[str]:
    """Consecutive pieces of text, each the longest that encodes to at most
    size bytes, ROTATION bytes of them (at least one)."""
    count = max(1, ROTATION // size)
    lens = [len(ch.encode(py)) for ch in text[: min(len(text), count * size + 8)]]
    out, start, used = [], 0, 0
    for k, n in enumerate(lens):
        if used + n > size:
            out.append(text[start:k])
            if len(out) == count:
                return out
            start, used = k, 0
        used += n
    if used and len(out) < count:
        out.append(text[start:len(lens)])
    if len(out) < count:
        raise SystemExit(f"codecs_vs_cpython: the text gives {len(out)} pieces of {size} bytes, not {count}")
    return out


def measure(name: str, py: str, texts: list[str], repeat: int, min_time: float) -> dict:
    c = pgcodec.lookup(name)
    info = codecs.lookup(py)
    datas = [t.encode(py) for t in texts]
    # Correctness first: the same str and the same bytes, for every text.
    for text, data in zip(texts, datas):
        if c.decode(data) != text or data.decode(py) != text:
            raise SystemExit(f"codecs_vs_cpython: {name} and {py} decode the test text differently")
        if c.encode(text) != data or info.encode(text)[0] != data:
            raise SystemExit(f"codecs_vs_cpython: {name} and {py} encode the test text differently")
    ours_dec, ours_enc, py_dec, py_enc = c.decode, c.encode, info.decode, info.encode

    # One pass over the rotation per call of the timer; the loop costs both
    # sides the same.
    def dec_ours():
        for d in datas:
            ours_dec(d)

    def dec_py1():
        for d in datas:
            d.decode(py)

    def dec_py2():
        for d in datas:
            py_dec(d)

    def enc_ours():
        for t in texts:
            ours_enc(t)

    def enc_py1():
        for t in texts:
            t.encode(py)

    def enc_py2():
        for t in texts:
            py_enc(t)

    per = len(texts)
    dec_ours_s, dec_py1_s, dec_py2_s = best_interleaved([dec_ours, dec_py1, dec_py2], repeat, min_time)
    enc_ours_s, enc_py1_s, enc_py2_s = best_interleaved([enc_ours, enc_py1, enc_py2], repeat, min_time)
    dec_py, enc_py = min(dec_py1_s, dec_py2_s), min(enc_py1_s, enc_py2_s)
    return {"encoding": name, "python": py, "bytes": sum(map(len, datas)) / per,
            "chars": sum(map(len, texts)) / per, "texts": per,
            "decode_ns": dec_ours_s / per * 1e9, "decode_py_ns": dec_py / per * 1e9,
            "encode_ns": enc_ours_s / per * 1e9, "encode_py_ns": enc_py / per * 1e9}


def fmt_time(ns: float) -> str:
    if ns < 10_000:
        return f"{ns:.0f} ns"
    if ns < 10_000_000:
        return f"{ns / 1000:.1f} µs"
    return f"{ns / 1e6:.1f} ms"


def machine() -> str:
    """The CPU, with the vector extensions that choose pgcodec's kernel (the
    same model name can be an AVX2-only and an AVX-512 machine), and the
    kernel forced, if one is."""
    model = platform.processor() or "unknown CPU"
    flags: set[str] = set()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name") and model == (platform.processor() or "unknown CPU"):
                    model = line.split(":", 1)[1].strip()
                elif line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
    except OSError:
        pass
    if "avx512vbmi2" in flags:
        isa = "AVX-512 with VBMI2"
    elif "avx512bw" in flags:
        isa = "AVX-512BW without VBMI2"
    elif "avx2" in flags:
        isa = "AVX2, no AVX-512"
    else:
        isa = "no AVX2" if flags else "vector extensions unknown"
    forced = os.environ.get("PGCODEC_FORCE_IMPL")
    if forced:
        isa += f", PGCODEC_FORCE_IMPL={forced}"
    return (f"{model} ({isa}), {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}")


def markdown(results: list[dict], command: str, elapsed: float) -> str:
    lines = [
        "<!-- Generated by bench/python/codecs_vs_cpython.py; do not edit, rerun it. -->",
        "# pgcodec's Python module against CPython's codecs",
        "",
        f"Command: `{command}`  ",
        f"Machine: {machine()}  ",
        f"Run took {elapsed:.0f} s. Below 1M each size is a rotation of distinct texts, {ROTATION >> 10} KiB of "
        "them, a call each (a decoder called on one text again and again has its branches learnt by the CPU). "
        "Time per call is the best of the interleaved rounds; CPython's is the faster of "
        "`b.decode(py)` / `codecs.lookup(py).decode(b)` (encode likewise). Ratio = CPython ÷ pgcodec: "
        "above 1.00 pgcodec is faster. ns/B is per encoded byte.",
        "",
        "| encoding (CPython codec) | text | size | decode pgcodec | ns/B | CPython | ratio | encode pgcodec | ns/B | CPython | ratio |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for r in results:
        b = max(r["bytes"], 1)
        lines.append(
            f"| {r['encoding']} ({r['python']}) | {r['text']} | {r['size']} | {fmt_time(r['decode_ns'])} | "
            f"{r['decode_ns'] / b:.2f} | {fmt_time(r['decode_py_ns'])} | {r['decode_py_ns'] / r['decode_ns']:.2f} | "
            f"{fmt_time(r['encode_ns'])} | {r['encode_ns'] / b:.2f} | {fmt_time(r['encode_py_ns'])} | "
            f"{r['encode_py_ns'] / r['encode_ns']:.2f} |")
    slow = [r for r in results if r["decode_py_ns"] < r["decode_ns"] or r["encode_py_ns"] < r["encode_ns"]]
    lines += ["", f"Rows where CPython is faster in a direction: {len(slow)} of {len(results)}."]
    return "\n".join(lines) + "\n"


def write_atomically(path: str, text: str) -> None:
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".codecs_vs_cpython-", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default=",".join(SIZES), help="sizes of encoded text (default: %(default)s)")
    ap.add_argument("--only", default="", help="PostgreSQL encodings to run, comma-separated (default: all rows)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per timing; the best counts (default: %(default)s)")
    ap.add_argument("--min-time", type=float, default=0.05, help="seconds each run lasts at least (default: %(default)s)")
    ap.add_argument("--markdown", help="write the table here")
    ap.add_argument("--json", help="write every figure here")
    ap.add_argument("--smoke", action="store_true", help="three small sizes, one short run each")
    args = ap.parse_args()
    sizes = args.sizes.split(",")
    for s in sizes:
        if s not in SIZES:
            ap.error(f"unknown size {s!r}; one of {', '.join(SIZES)}")
    global ROTATION
    if args.smoke:
        sizes, args.repeat, args.min_time = ["8", "100", "1K"], 1, 0.001
        ROTATION = 16 << 10
    only = {s.strip().upper() for s in args.only.split(",") if s.strip()}
    rows = [r for r in ROWS if not only or r[0] in only]
    if not rows:
        ap.error(f"--only {args.only!r} names no row")
    start = time.monotonic()
    results = []
    for i, (name, py, kind, groups) in enumerate(rows):
        big = make_text(name, py, groups, max([2 * ROTATION] + [SIZES[s] for s in sizes]), seed=24 + i)
        for s in sizes:
            r = measure(name, py, pieces(big, py, SIZES[s]), args.repeat, args.min_time)
            r.update(text=kind, size=s)
            results.append(r)
            print(f"{name:>14} {kind:<38} {s:>4}: decode {r['decode_py_ns'] / r['decode_ns']:5.2f}x "
                  f"encode {r['encode_py_ns'] / r['encode_ns']:5.2f}x  ({fmt_time(r['decode_ns'])}, "
                  f"{fmt_time(r['encode_ns'])})", file=sys.stderr, flush=True)
    elapsed = time.monotonic() - start
    # The module measured, as the command that imports it (repo-relative).
    module_dir = os.path.dirname(os.path.dirname(os.path.abspath(pgcodec.__file__)))
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    where = os.path.relpath(module_dir, repo) if module_dir.startswith(repo + os.sep) else "<installed>"
    command = f"PYTHONPATH={where} /usr/bin/python3 bench/python/codecs_vs_cpython.py " + \
        " ".join(a for a in sys.argv[1:] if not a.startswith("--markdown") and not a.startswith("--json")
                 and a != args.markdown and a != args.json)
    if args.markdown:
        write_atomically(args.markdown, markdown(results, command.strip(), elapsed))
    if args.json:
        write_atomically(args.json, json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
