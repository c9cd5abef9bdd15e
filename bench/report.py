#!/usr/bin/python3
"""Writes bench/RESULTS.md from one pgcodec_bench run (Google Benchmark JSON)
and one pgcodec_first_call run (JSON lines). Standard library only; run by
ci/bench, which passes the command line it ran.

  bench/report.py --bench BENCH.json --first-call FIRST.jsonl \
      --command "ci/bench" --compiler "g++ ..." [--keep-python OLD.md] --out RESULTS.md

--keep-python carries the Python section (ci/bench --python, between the
markers of bench/python/results_section.py) over from the report being
replaced, so regenerating the C++ figures does not lose it.

Ratios are peer time / pgcodec time from the same run, CPU time (the
machine is shared; wall time includes other processes): > 1 means pgcodec is
faster. Each goal of issue 12 gets a table and PASS/MISS against its
threshold. Exits non-zero if the input is unusable.
"""

import argparse
import datetime
import json
import os
import platform
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
import results_section  # noqa: E402  (bench/python/: the Python section's markers)

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}

GOAL_NATIVE = 3.0  # x the faster of ICU and iconv
GOAL_UTF8_SIMDUTF = 0.8
GOAL_LATIN1_SIMDUTF = 0.5
GOAL_CPYTHON = 1.0
GOAL_FIXED_NS = 10.0
GOAL_FIND_NS = 30.0
GOAL_FIRST_US = 10.0  # first decode + first encode, our reading of "no first-use cost"
# Issue 26's goals.
GOAL_JIS2004_ICONV = 2.0
GOAL_SINGLE_BYTE = 3.0
GOAL_ENCODING_RS = 1.2
GOAL_GB4_ICONV = 1.5
GOAL_CJK_ENCODE_ICU = 1.5

# PostgreSQL's single-byte encodings with a table (SQL_ASCII has none).
SINGLE_BYTE = ["LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN6", "LATIN7", "LATIN8", "LATIN9", "LATIN10",
               "WIN1250", "WIN1251", "WIN1252", "WIN1253", "WIN1254", "WIN1255", "WIN1256", "WIN1257", "WIN1258",
               "WIN866", "WIN874", "KOI8R", "KOI8U", "ISO_8859_5", "ISO_8859_6", "ISO_8859_7", "ISO_8859_8"]
NATIVE_SIZES = ["8B", "100B", "16KiB", "64KiB"]


def load_bench(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    runs = {}
    errors = {}
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if b.get("error_occurred"):
            errors[name] = b.get("error_message", "error")
            continue
        rt = b.get("run_type", "iteration")
        if rt == "aggregate" and b.get("aggregate_name") != "median":
            continue
        if rt == "iteration" and name in runs and runs[name].get("_median"):
            continue
        rec = {
            "cpu_ns": b["cpu_time"] * UNIT_NS[b.get("time_unit", "ns")],
            "real_ns": b["real_time"] * UNIT_NS[b.get("time_unit", "ns")],
            "allocs": b.get("allocs_per_call"),
            "label": b.get("label", ""),
            "bps": b.get("bytes_per_second"),
            "_median": rt == "aggregate",
        }
        if rt == "iteration" and name in runs and not runs[name]["_median"]:
            # Repetitions without aggregates: keep the smallest CPU time.
            if rec["cpu_ns"] >= runs[name]["cpu_ns"]:
                continue
        runs[name] = rec
    return data.get("context", {}), runs, errors


def load_first_call(path):
    rows = []
    if not path or not os.path.exists(path):
        return rows
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                rows.append(json.loads(line))
    return rows


def cpu_model_and_flags():
    model, flags = platform.processor() or "unknown", []
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and model in ("unknown", "", platform.processor()):
                    model = value.strip()
                elif key == "flags" and not flags:
                    flags = value.split()
    except OSError:
        pass
    simd = [fl for fl in flags if re.match(r"^(sse|ssse|avx|fma|bmi|popcnt|gfni|vaes|vpclmul|pclmul|sha_ni)", fl)]
    return model, simd


def fmt_ratio(r):
    return "-" if r is None else f"{r:.2f}x"


def fmt_ns(ns):
    if ns is None:
        return "-"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} us"
    return f"{ns:.1f} ns"


def verdict(ok):
    return "PASS" if ok else "**MISS**"


class Report:
    def __init__(self, runs, errors):
        self.runs, self.errors = runs, errors
        self.lines = []
        self.goals = []  # (goal, threshold text, worst text, passed, total, ok)

    def out(self, s=""):
        self.lines.append(s)

    def t(self, name):
        r = self.runs.get(name)
        return r["cpu_ns"] if r else None

    def why(self, name):
        if name in self.errors:
            return self.errors[name]
        return "not run" if name not in self.runs else ""

    def ratio(self, peer, pg):
        a, b = self.t(peer), self.t(pg)
        return a / b if a and b else None

    def best(self, base, impls):
        """The fastest of impls at base (name, time), or (None, None)."""
        timed = [(self.t(base + i), i) for i in impls if self.t(base + i)]
        return (min(timed)[1], min(timed)[0]) if timed else (None, None)

    def table(self, header, rows):
        self.out("| " + " | ".join(header) + " |")
        self.out("|" + "|".join("---" for _ in header) + "|")
        for r in rows:
            self.out("| " + " | ".join(str(c) for c in r) + " |")
        self.out()


def encodings_in(runs, prefix):
    seen = []
    for name in runs:
        if name.startswith(prefix):
            enc = name[len(prefix):].split("/")[0]
            if enc not in seen:
                seen.append(enc)
    return seen


def section_native(rep, text, goal):
    title = "native text" if text == "native" else "random representable text"
    rep.out(f"## {'Goal: ' if goal else ''}every encoding, both directions, {title} (16 KiB)")
    rep.out()
    if goal:
        rep.out(f"Ratio = the faster of ICU (the faster of its two paths, ucnv_convertEx and through UTF-16) and iconv "
                f"producing pgcodec's exact output ÷ pgcodec; goal ≥ {GOAL_NATIVE:g}×. "
                "A peer whose output differs (or that has no converter) is not timed; the reason is listed.")
    else:
        rep.out("The same comparison on code points drawn uniformly from each encoding's BMP repertoire; no goal, for reading beside the native table.")
    rep.out()
    rows, passed, total, worst = [], 0, 0, None
    skipped = []
    encs = []
    for d in ("decode", "encode"):
        for e in encodings_in(rep.runs, f"codec/{d}/"):
            if e not in encs and f"codec/{d}/{e}/{text}/16KiB/pgcodec" in rep.runs:
                encs.append(e)
    for e in encs:
        row = [e]
        for d in ("decode", "encode"):
            base = f"codec/{d}/{e}/{text}/16KiB/"
            pg = base + "pgcodec"
            icu_impl, icu_t = rep.best(base, ["icu", "icu2"])
            r_icu = icu_t / rep.t(pg) if icu_t and rep.t(pg) else None
            r_iconv = rep.ratio(base + "iconv", pg)
            for peer in ("icu", "icu2", "iconv"):
                if rep.t(base + peer) is None and rep.why(base + peer):
                    skipped.append((f"{d} {e}", peer, rep.why(base + peer)))
            best = min([r for r in (r_icu, r_iconv) if r is not None], default=None)
            pg_r = rep.runs.get(pg)
            mbs = f"{pg_r['bps'] / 1e6:.0f}" if pg_r and pg_r.get("bps") else "-"
            if best is not None:
                total += 1
                ok = best >= GOAL_NATIVE
                passed += ok
                worst = best if worst is None else min(worst, best)
                v = verdict(ok) if goal else ""
            else:
                v = "no peer"
            row += [mbs, fmt_ratio(r_icu), fmt_ratio(r_iconv), (fmt_ratio(best) + " " + v).strip()]
        rows.append(row)
    rep.table(["encoding", "decode MB/s", "÷ ICU", "÷ iconv", "decode vs faster",
               "encode MB/s", "÷ ICU", "÷ iconv", "encode vs faster"], rows)
    if skipped:
        rep.out("Peers not timed:")
        rep.out()
        for what, peer, why in skipped:
            rep.out(f"- {what}, {peer}: {why}")
        rep.out()
    if goal:
        rep.goals.append((f"every encoding, both directions, native text ≥ {GOAL_NATIVE:g}× faster of ICU/iconv",
                          f"≥ {GOAL_NATIVE:g}×", f"worst {fmt_ratio(worst)}", passed, total,
                          total > 0 and passed == total))


def section_simdutf(rep, have_simdutf):
    rep.out("## Goal: UTF8 validation + copy, and LATIN1 ↔ UTF-8, against simdutf (64 KiB)")
    rep.out()
    names = [n for n in rep.runs if n.startswith("simdutf/") and n.endswith("/pgcodec")]
    if not names:
        rep.out(f"simdutf rows are missing: this build has no simdutf ({have_simdutf}). "
                "ci/bench builds it when a simdutf source tree is available offline "
                "(--simdutf DIR, PGCODEC_BENCH_SIMDUTF_DIR, or build/simdutf-src).")
        rep.out()
        rep.goals.append((f"UTF8 validate+copy ≥ {GOAL_UTF8_SIMDUTF}× simdutf", "", "not measured (no simdutf)", 0, 0, False))
        rep.goals.append((f"LATIN1 ↔ UTF-8 ≥ {GOAL_LATIN1_SIMDUTF}× simdutf", "", "not measured (no simdutf)", 0, 0, False))
        return
    rep.out("Ratio = simdutf time ÷ pgcodec time. utf8_validate_copy: pgcodec's UTF8 decode against "
            "simdutf::validate_utf8 + memcpy + memchr for NUL; latin1_to_utf8 / utf8_to_latin1: pgcodec's LATIN1 "
            "decode / encode against simdutf::convert_latin1_to_utf8 / convert_utf8_to_latin1 (which do not reject NUL).")
    rep.out()
    for op, goal in (("utf8_validate_copy", GOAL_UTF8_SIMDUTF), ("latin1_to_utf8", GOAL_LATIN1_SIMDUTF),
                     ("utf8_to_latin1", GOAL_LATIN1_SIMDUTF)):
        rows, passed, total, worst = [], 0, 0, None
        for n in names:
            parts = n.split("/")
            if parts[1] != op:
                continue
            base = "/".join(parts[:3]) + "/"
            r = rep.ratio(base + "simdutf", base + "pgcodec")
            pg, su = rep.runs.get(base + "pgcodec"), rep.runs.get(base + "simdutf")
            if r is not None:
                total += 1
                passed += r >= goal
                worst = r if worst is None else min(worst, r)
            rows.append([op, parts[2], f"{pg['bps'] / 1e9:.2f}" if pg and pg.get("bps") else "-",
                         f"{su['bps'] / 1e9:.2f}" if su and su.get("bps") else rep.why(base + "simdutf"),
                         fmt_ratio(r), verdict(r is not None and r >= goal)])
        rep.table(["operation", "text", "pgcodec GB/s", "simdutf GB/s", "ratio", f"≥ {goal}×"], rows)
        label = "UTF8 validate+copy" if op == "utf8_validate_copy" else op.replace("_", " ")
        rep.goals.append((f"{label} ≥ {goal}× simdutf", f"≥ {goal}×", f"worst {fmt_ratio(worst)}", passed, total,
                          total > 0 and passed == total))


def section_cpython(rep):
    rep.out("## Goal: at least CPython's own fast paths (ASCII and Latin-1 text)")
    rep.out()
    rep.out("Ratio = CPython time ÷ pgcodec time (PyUnicode_DecodeUTF8 for UTF8, PyUnicode_DecodeLatin1 for LATIN1, "
            "embedded in the same process, str allocation included; pgcodec writes UTF-8 into a caller buffer).")
    rep.out()
    rows, passed, total, worst = [], 0, 0, None
    for n in rep.runs:
        if n.startswith("cpython/") and n.endswith("/pgcodec"):
            base = n[: -len("pgcodec")]
            r = rep.ratio(base + "python", n)
            if r is not None:
                total += 1
                passed += r >= GOAL_CPYTHON
                worst = r if worst is None else min(worst, r)
            p = n.split("/")
            rows.append([p[2], p[3], p[4], fmt_ns(rep.t(n)), fmt_ns(rep.t(base + "python")) if rep.t(base + "python") else rep.why(base + "python"),
                         fmt_ratio(r), verdict(r is not None and r >= GOAL_CPYTHON)])
    rep.table(["encoding", "text", "size", "pgcodec", "CPython", "ratio", "≥ 1×"], rows)
    rep.goals.append(("≥ CPython's PyUnicode_DecodeUTF8 / DecodeLatin1 on ASCII and Latin-1", "≥ 1×",
                      f"worst {fmt_ratio(worst)}", passed, total, total > 0 and passed == total))


def section_fixed(rep, first_call):
    rep.out("## Goal: per-call fixed cost, find_codec, allocations, first use")
    rep.out()
    fixed = [(n, rep.t(n)) for n in rep.runs if n.startswith("fixed/") and n.endswith("/pgcodec")]
    over = [(n, t) for n, t in fixed if t > GOAL_FIXED_NS]
    worst = max(fixed, key=lambda x: x[1]) if fixed else None
    rep.out(f"8 ASCII characters (\"SELECT 1\") through the cached path of every codec: {len(fixed) - len(over)} of "
            f"{len(fixed)} within {GOAL_FIXED_NS:g} ns; slowest {worst[0] if worst else '-'} {fmt_ns(worst[1]) if worst else ''}.")
    rep.out()
    rows = []
    for e in encodings_in(rep.runs, "fixed/decode/"):
        d, c = f"fixed/decode/{e}/8ascii/", f"fixed/encode/{e}/8ascii/"
        rows.append([e, fmt_ns(rep.t(d + "pgcodec")), fmt_ns(rep.t(d + "pgcodec_by_name")) if rep.t(d + "pgcodec_by_name") else "",
                     fmt_ns(rep.t(c + "pgcodec")), fmt_ns(rep.t(c + "pgcodec_by_name")) if rep.t(c + "pgcodec_by_name") else ""])
    rep.table(["encoding", "decode cached", "decode by name", "encode cached", "encode by name"], rows)
    rep.goals.append((f"per-call fixed cost ≤ {GOAL_FIXED_NS:g} ns (8 ASCII characters, every codec)",
                      f"≤ {GOAL_FIXED_NS:g} ns", f"slowest {fmt_ns(worst[1]) if worst else '-'}",
                      len(fixed) - len(over), len(fixed), bool(fixed) and not over))

    finds = [(n, rep.t(n)) for n in rep.runs if n.startswith("find_codec/")]
    rep.table(["find_codec(name)", "time", f"≤ {GOAL_FIND_NS:g} ns"],
              [[n.split("/", 1)[1], fmt_ns(t), verdict(t <= GOAL_FIND_NS)] for n, t in finds])
    fworst = max((t for _, t in finds), default=None)
    rep.goals.append((f"find_codec ≤ {GOAL_FIND_NS:g} ns", f"≤ {GOAL_FIND_NS:g} ns", f"slowest {fmt_ns(fworst)}",
                      sum(t <= GOAL_FIND_NS for _, t in finds), len(finds), bool(finds) and fworst <= GOAL_FIND_NS))

    # Allocations: every pgcodec cached row must make none.
    cached = [(n, r["allocs"]) for n, r in rep.runs.items()
              if n.endswith("/pgcodec") and r.get("allocs") is not None]
    bad = [(n, a) for n, a in cached if a > 0]
    rep.out(f"Heap allocations per call (malloc hook over the whole process): pgcodec's cached path with a caller "
            f"buffer, {len(cached)} benchmarks: {len(cached) - len(bad)} make none."
            + ("" if not bad else " Allocating: " + ", ".join(f"{n} ({a:.2f})" for n, a in bad[:10])))
    rep.out()
    per_impl = {}
    for n, r in rep.runs.items():
        if r.get("allocs") is None or n.startswith("find_codec/"):
            continue
        impl = n.rsplit("/", 1)[1]
        per_impl.setdefault(impl, []).append(r["allocs"])
    rows = [[impl, len(v), f"{min(v):.2f}", f"{max(v):.2f}"] for impl, v in sorted(per_impl.items())]
    rep.out("Allocations per call by implementation (CPython's small objects come from its own arenas and are not counted):")
    rep.out()
    rep.table(["implementation", "benchmarks", "min allocs/call", "max allocs/call"], rows)
    rep.goals.append(("0 allocations per call (cached path, caller buffer)", "0", f"max {max((a for _, a in cached), default=0):.2f}",
                      len(cached) - len(bad), len(cached), bool(cached) and not bad))

    if first_call:
        rep.out(f"First call in a fresh process (pgcodec_first_call, fork + exec per run, median): find_codec, the first "
                f"decode of one non-ASCII character, the first encode of it, and a second (warm) decode. "
                f"Goal (our reading of \"no first-use cost\"): first decode + first encode ≤ {GOAL_FIRST_US:g} us.")
        rep.out()
        rows, ok_n = [], 0
        for r in first_call:
            first = r["decode_us"] + r["encode_us"]
            ok = first <= GOAL_FIRST_US
            ok_n += ok
            rows.append([r["encoding"], r.get("char", ""), f"{r['lookup_us']:.2f}", f"{r['decode_us']:.2f}",
                         f"{r['encode_us']:.2f}", f"{r['warm_us']:.2f}", verdict(ok)])
        rep.table(["encoding", "character", "find_codec us", "first decode us", "first encode us", "warm decode us",
                   f"≤ {GOAL_FIRST_US:g} us"], rows)
        wf = max(first_call, key=lambda r: r["decode_us"] + r["encode_us"])
        rep.goals.append((f"no first-use cost (first decode + encode ≤ {GOAL_FIRST_US:g} us)", f"≤ {GOAL_FIRST_US:g} us",
                          f"worst {wf['encoding']} {wf['decode_us'] + wf['encode_us']:.0f} us", ok_n, len(first_call),
                          ok_n == len(first_call)))
    else:
        rep.out("First-call latency: not measured in this run.")
        rep.out()


def section_seed(rep):
    rep.out("## The seed's experiment: cost per string")
    rep.out()
    rep.out("1,000 strings of 100 and 1,000 characters, code points uniform in U+0001..U+0FFF (SJIS, GBK, WIN1252: "
            "only those the encoding maps and that round-trip); each iteration decodes the next string. Time per string "
            "(CPU), and in brackets the ratio to pgcodec's cached path (> 1: pgcodec is faster). ICU and iconv write "
            "UTF-8 (u_strFromUTF8: UTF-16); CPython builds a str. Python codecs: utf_8, shift_jis, gbk, cp1252.")
    rep.out()
    impls = ["pgcodec", "pgcodec_by_name", "pgcodec_find_codec", "icu", "icu_open", "icu_u_strFromUTF8", "iconv",
             "iconv_open", "python_DecodeUTF8", "python_Decode", "python_getdecoder"]
    rows, notes = [], []
    keys = []
    for n in list(rep.runs) + list(rep.errors):
        if n.startswith("seed/"):
            k = "/".join(n.split("/")[2:4])
            if k not in keys:
                keys.append(k)
    for k in keys:
        base = f"seed/decode/{k}/"
        row = [k.replace("/", " ")]
        for impl in impls:
            t = rep.t(base + impl)
            if t is None:
                w = rep.why(base + impl)
                row.append("-" if w == "not run" else "skipped")
                if w != "not run":
                    notes.append(f"- {k} {impl}: {w}")
                continue
            r = rep.ratio(base + impl, base + "pgcodec")
            row.append(fmt_ns(t) + ("" if impl == "pgcodec" else f" ({fmt_ratio(r)})"))
        rows.append(row)
    rep.table(["set"] + impls, rows)
    if notes:
        rep.out("Not timed:")
        rep.out()
        rep.lines.extend(notes)
        rep.out()


def load_kernel_runs(kernel_runs):
    others = []
    for spec in kernel_runs:
        name, _, path = spec.partition("=")
        try:
            _, runs, _ = load_bench(path)
        except (OSError, ValueError, KeyError):
            runs = {}
        others.append((name, runs))
    return others


def section_kernels(rep, active, others):
    rep.out("## pgcodec per kernel")
    rep.out()
    if not others:
        rep.out(f"Only the default kernel ({active}) ran: this CPU or build offers no other.")
        rep.out()
        return
    rep.out(f"pgcodec's own rows again with PGCODEC_FORCE_IMPL=<kernel>, same build, same inputs; ratio = that "
            f"kernel's time ÷ the default kernel's ({active}), > 1 means the default is faster.")
    rep.out()
    rows = []
    for n in sorted(set().union(*(r.keys() for _, r in others))):
        t = rep.t(n)
        row = [n.rsplit("/", 1)[0], fmt_ns(t)]
        for _, runs in others:
            o = runs.get(n)
            row += [fmt_ns(o["cpu_ns"]) if o else "-", fmt_ratio(o["cpu_ns"] / t) if o and t else "-"]
        rows.append(row)
    hdr = ["benchmark", active]
    for k, _ in others:
        hdr += [k, f"{k} ÷ {active}"]
    rep.table(hdr, rows)


def goal_grid(rep, title, threshold, cells, cols, peers, pg_runs=None):
    """One goal as a table: a row per (encoding, direction) of `cells`, a
    column per (text, size) of `cols`; ratio = the fastest of `peers` ÷
    pgcodec (from pg_runs, another kernel's run, if given). Records the goal
    and returns nothing."""
    pg_runs = pg_runs if pg_runs is not None else rep.runs
    rows, passed, total, worst, untimed = [], 0, 0, None, []
    for e, d in cells:
        row = [e, d]
        for t, z in cols:
            base = f"codec/{d}/{e}/{t}/{z}/"
            pg = pg_runs.get(base + "pgcodec")
            impl, peer_t = rep.best(base, peers)
            if not pg or peer_t is None:
                row.append("-")
                if pg:
                    untimed.append(f"{d} {e} {t} {z}: " + "; ".join(f"{p}: {rep.why(base + p)}" for p in peers))
                continue
            r = peer_t / pg["cpu_ns"]
            total += 1
            ok = r >= threshold
            passed += ok
            worst = r if worst is None else min(worst, r)
            row.append(f"{r:.2f}x {impl}" + ("" if ok else " **MISS**"))
        rows.append(row)
    rep.out(f"### {title}: {passed} of {total} ≥ {threshold:g}×, worst {fmt_ratio(worst)}")
    rep.out()
    rep.table(["encoding", "direction"] + [f"{t} {z}" for t, z in cols], rows)
    if untimed:
        rep.out("No peer timed (the reasons):")
        rep.out()
        for u in untimed:
            rep.out(f"- {u}")
        rep.out()
    rep.goals.append((title, f"≥ {threshold:g}×", f"worst {fmt_ratio(worst)}", passed, total,
                      total > 0 and passed == total))


def section_issue26(rep, active, others, popcount):
    rep.out("## Goals of issue 26: against each peer's fastest path")
    rep.out()
    rep.out("Ratio = the peer's time ÷ pgcodec's, each cell naming the peer that was fastest there (icu: "
            "ucnv_convertEx; icu2: through a UTF-16 buffer; iconv; encoding_rs). Inputs are rotations of distinct "
            "texts, one a call (bench/codec_bench.cpp): the words of a script's sample drawn at random, or code points "
            "drawn from the repertoire (random).")
    rep.out()
    jis = [(e, "encode") for e in ("EUC_JIS_2004", "SHIFT_JIS_2004")]
    goal_grid(rep, f"EUC_JIS_2004 / SHIFT_JIS_2004 encode ≥ {GOAL_JIS2004_ICONV:g}× glibc iconv", GOAL_JIS2004_ICONV,
              jis, [("native", z) for z in NATIVE_SIZES], ["iconv"])
    sb = [(e, d) for e in SINGLE_BYTE for d in ("decode", "encode")]
    sb_cols = [("native", z) for z in NATIVE_SIZES] + [("random", "16KiB")]
    goal_grid(rep, f"single-byte encodings ≥ {GOAL_SINGLE_BYTE:g}× the faster of ICU's paths and iconv "
              f"(kernel {active})", GOAL_SINGLE_BYTE, sb, sb_cols, ["icu", "icu2", "iconv"])
    avx2 = dict(others).get("avx2")
    if active != "avx2" and avx2 is not None:
        goal_grid(rep, f"single-byte encodings ≥ {GOAL_SINGLE_BYTE:g}× the faster of ICU's paths and iconv "
                  f"(PGCODEC_FORCE_IMPL=avx2)", GOAL_SINGLE_BYTE, sb, sb_cols, ["icu", "icu2", "iconv"], avx2)
    elif active != "avx2":
        rep.out("The AVX2 kernel did not run (this CPU or build has none): the single-byte goal under "
                "PGCODEC_FORCE_IMPL=avx2 is not measured here.")
        rep.out()
    if any(n.endswith("/encoding_rs") for n in list(rep.runs) + list(rep.errors)):
        goal_grid(rep, f"EUC_KR, UHC, GBK, GB18030 decode ≥ {GOAL_ENCODING_RS:g}× encoding_rs", GOAL_ENCODING_RS,
                  [(e, "decode") for e in ("EUC_KR", "UHC", "GBK", "GB18030")],
                  [("native", z) for z in NATIVE_SIZES], ["encoding_rs"])
    else:
        rep.out("encoding_rs rows are missing: this build has no encoding_rs (bench/encoding_rs; `ci/setup "
                "--bench-peers` installs Debian's crate and cargo).")
        rep.out()
        rep.goals.append((f"EUC_KR, UHC, GBK, GB18030 decode ≥ {GOAL_ENCODING_RS:g}× encoding_rs", "",
                          "not measured (no encoding_rs)", 0, 0, False))
    goal_grid(rep, f"GB18030 four-byte text ≥ {GOAL_GB4_ICONV:g}× glibc iconv, both ways", GOAL_GB4_ICONV,
              [("GB18030", d) for d in ("decode", "encode")],
              [(t, z) for t in ("fourbyte", "korean") for z in ("100B", "16KiB")], ["iconv"])
    goal_grid(rep, f"SJIS, GBK, BIG5, UHC, EUC_KR encode ≥ {GOAL_CJK_ENCODE_ICU:g}× ICU ucnv_convertEx",
              GOAL_CJK_ENCODE_ICU, [(e, "encode") for e in ("SJIS", "GBK", "BIG5", "UHC", "EUC_KR")],
              [("native", z) for z in NATIVE_SIZES], ["icu"])
    if popcount is not None:
        rep.out(f"Calls of libgcc's `__popcount*` in `objdump -d` of the library: {popcount}.")
        rep.out()
        rep.goals.append(("no __popcount call in the library", "0", str(popcount), int(popcount == 0), 1,
                          popcount == 0))
    rep.out("UTF-8 of 8 B and 100 B against simdutf + the NUL check: the utf8_validate_copy rows *-8B and *-100B "
            "of the simdutf goal above.")
    rep.out()


def section_prose(rep):
    rep.out("## Prose in UTF8 and WIN1252 (the former decode_bench cases)")
    rep.out()
    rep.out("MB/s of input; ratios = peer time ÷ pgcodec (cached) time. ICU via UTF-16 is icu2 (two steps through a "
            "UTF-16 buffer, to UTF-8); ICU UTF-16 only is ucnv_toUChars alone (UTF-16 output, what an ICU application "
            "calls). Inputs are rotations of the sample's words drawn at random.")
    rep.out()
    rows = []
    for n in rep.runs:
        if n.startswith("codec/") and n.endswith("/pgcodec"):
            p = n.split("/")
            if p[3] not in ("english", "mixed", "western"):
                continue
            base = n[: -len("pgcodec")]
            pg = rep.runs[n]
            rows.append([p[1], p[2], p[3], p[4], f"{pg['bps'] / 1e6:.0f}" if pg.get("bps") else "-",
                         fmt_ratio(rep.ratio(base + "pgcodec_by_name", n)), fmt_ratio(rep.ratio(base + "icu", n)),
                         fmt_ratio(rep.ratio(base + "icu2", n)), fmt_ratio(rep.ratio(base + "icu_utf16", n)),
                         fmt_ratio(rep.ratio(base + "iconv", n)), fmt_ratio(rep.ratio(base + "encoding_rs", n))])
    rep.table(["dir", "encoding", "text", "size", "pgcodec MB/s", "÷ by_name", "÷ ICU", "÷ ICU via UTF-16",
               "÷ ICU UTF-16 only", "÷ iconv", "÷ encoding_rs"], rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--first-call")
    ap.add_argument("--command", default="ci/bench")
    ap.add_argument("--compiler", default="")
    ap.add_argument("--mode", default="full")
    ap.add_argument("--out", required=True)
    ap.add_argument("--kernel-run", action="append", default=[], metavar="KERNEL=BENCH.json",
                    help="pgcodec's rows run again under another kernel (PGCODEC_FORCE_IMPL)")
    ap.add_argument("--popcount-calls", type=int, metavar="N",
                    help="calls of __popcount* found by objdump -d in the library (ci/bench counts them)")
    ap.add_argument("--keep-python", metavar="OLD.md",
                    help="the report being replaced: its Python section is kept (a missing file has none)")
    a = ap.parse_args()

    kept = None
    if a.keep_python:
        try:
            with open(a.keep_python, encoding="utf-8") as f:
                kept = results_section.extract(f.read())
        except FileNotFoundError:
            pass
        except (OSError, ValueError) as e:
            print(f"report.py: cannot take the Python section from {a.keep_python}: {e}", file=sys.stderr)
            return 1

    try:
        ctx, runs, errors = load_bench(a.bench)
    except (OSError, ValueError, KeyError) as e:
        print(f"report.py: cannot read {a.bench}: {e}", file=sys.stderr)
        return 1
    if not runs:
        print(f"report.py: no benchmark results in {a.bench}", file=sys.stderr)
        return 1
    first_call = load_first_call(a.first_call)

    rep = Report(runs, errors)
    body = Report(runs, errors)
    body.goals = rep.goals
    others = load_kernel_runs(a.kernel_run)
    section_native(body, "native", True)
    section_simdutf(body, ctx.get("simdutf", "absent"))
    section_issue26(body, ctx.get("pgcodec_kernel", "?"), others, a.popcount_calls)
    section_cpython(body)
    section_fixed(body, first_call)
    section_seed(body)
    section_kernels(body, ctx.get("pgcodec_kernel", "?"), others)
    section_native(body, "random", False)
    section_prose(body)
    if errors:
        body.out("## Every benchmark not timed, with the reason")
        body.out()
        for n, w in errors.items():
            body.out(f"- `{n}`: {w}")
        body.out()

    model, simd = cpu_model_and_flags()
    rep.out("<!-- Generated by ci/bench (bench/report.py) from one run; do not edit by hand. -->")
    rep.out("# pgcodec benchmark results")
    rep.out()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    rep.out(f"- Report written {now}; mode **{a.mode}**"
            + (" (fewer encodings, short min_time: indicative only)" if a.mode != "full" else ""))
    rep.out(f"- Command: `{a.command}`")
    rep.out(f"- CPU: {model}, {ctx.get('num_cpus', '?')} CPUs at {ctx.get('mhz_per_cpu', '?')} MHz; "
            f"SIMD: {' '.join(simd) if simd else 'unknown'}")
    rep.out(f"- Compiler: {a.compiler or 'unknown'}; pgcodec kernel: {ctx.get('pgcodec_kernel', '?')} "
            f"(available: {ctx.get('pgcodec_kernels_available', '?')})")
    rep.out(f"- Peers: ICU {ctx.get('icu', '?')}, glibc iconv {ctx.get('glibc', '?')}, CPython {ctx.get('python', '?').split(' ')[0]}, "
            f"simdutf {ctx.get('simdutf', 'absent')}, encoding_rs {ctx.get('encoding_rs', 'absent')}")
    load = ctx.get("load_avg", [])
    load = ", ".join(f"{x:.2f}" for x in load) if isinstance(load, list) else str(load)
    rep.out(f"- Load average at start: {load or '?'} (2 CPUs shared with other work). Times are CPU time per call (median of the repetitions "
            "when there are several); ratio = peer ÷ pgcodec, > 1 means pgcodec is faster.")
    rep.out()
    rep.out("## Goals (issues 12 and 26)")
    rep.out()
    rep.table(["goal", "threshold", "figure", "passing", "verdict"],
              [[g, th, fig, f"{p}/{t}", verdict(ok) if t else "not measured"] for g, th, fig, p, t, ok in rep.goals])
    rep.lines.extend(body.lines)
    text = "\n".join(rep.lines).rstrip() + "\n"
    if kept is not None:
        text = results_section.place(text, kept)

    tmp = a.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
