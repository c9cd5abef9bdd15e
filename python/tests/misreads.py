"""Misread counts: how many of the characters PostgreSQL reads in each
encoding each Python driver's default codec reads as other text, or rejects.

For each of the 42 encodings, the characters counted are every well-formed
character whose PostgreSQL decoding to UTF-8 succeeds, enumerated with
pgcodec (by lead byte and char_length, see characters()); a character is
misread when the driver's Python codec decodes its bytes to other text or
raises. The drivers' codecs are their own tables: psycopg 3
(psycopg._encodings.py_codecs), psycopg2 (psycopg2.extensions.encodings)
and asyncpg (ASYNCPG_NAMES below; asyncpg keeps its table in compiled code).

    /usr/bin/python3 python/tests/misreads.py      # prints the markdown table

needs pgcodec, psycopg and psycopg2 importable (PYTHONPATH=<build>/python).
test_misreads.py checks every count against the divergence registry
(corpus/divergences/<ENC>.python-<codec>.tsv).
"""

from __future__ import annotations

import codecs
import itertools
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional

import pgcodec

DRIVERS = ("psycopg", "psycopg2", "asyncpg")

# asyncpg 0.27.0, asyncpg/protocol/encodings.pyx (ENCODINGS_MAP, a cdef dict
# Python cannot reach): the names asyncpg gives codecs.lookup() for the
# client_encoding the server reports, lower-cased; a name not listed is
# passed on lower-cased as it is. Only the entries for PostgreSQL's canonical
# names matter here (the server always reports those).
# test_live_drivers_asyncpg.py checks this against a connection's codec.
ASYNCPG_NAMES = {
    "euc_cn": "euccn",
    "euc_jp": "eucjp",
    "euc_kr": "euckr",
    "koi8r": "koi8_r",
    "koi8u": "koi8_u",
    "shift_jis_2004": "euc_jis_2004",
    "sjis": "shift_jis",
    "sql_ascii": "ascii",
    "win1250": "cp1250",
    "win1251": "cp1251",
    "win1252": "cp1252",
    "win1253": "cp1253",
    "win1254": "cp1254",
    "win1255": "cp1255",
    "win1256": "cp1256",
    "win1257": "cp1257",
    "win1258": "cp1258",
    "win866": "cp866",
    "win874": "cp874",
}


def _canonical(pyname: Optional[str]) -> Optional[str]:
    if pyname is None:
        return None
    try:
        return codecs.lookup(pyname).name
    except LookupError:
        return None


def driver_codec(driver: str, encoding: str) -> Optional[str]:
    """The canonical name (codecs.lookup().name) of the Python codec a driver
    uses for a client_encoding by itself, None when it has none (it refuses
    it). Entries pgcodec.drivers put into the drivers' tables do not count:
    psycopg2's own table is the one install() saved."""
    if driver == "psycopg":
        from psycopg import _encodings
        name = _encodings.py_codecs.get(encoding.encode())
        return None if name is None or name.startswith("pgcodec-") else _canonical(name)
    if driver == "psycopg2":
        import psycopg2.extensions
        table = psycopg2.extensions.encodings
        drivers = sys.modules.get("pgcodec.drivers.psycopg2")
        if drivers is not None and drivers._saved is not None:
            table = drivers._saved
        # psycopg2 drops everything but letters and digits before its lookup.
        key = re.sub(r"[^A-Za-z0-9]", "", encoding).upper()
        return _canonical(table.get(key))
    if driver == "asyncpg":
        low = encoding.lower()
        return _canonical(ASYNCPG_NAMES.get(low, low))
    raise ValueError(f"unknown driver {driver!r}")


# --- enumerating the characters PostgreSQL reads ------------------------------

_SEED_BYTES = (0xA1, 0x80, 0x30, 0x81, 0xB0, 0xA0, 0xF0, 0x40)


def _wellformed(codec, seq: bytes) -> bool:
    try:
        codec.decode(seq)
        return True
    except pgcodec.DecodeError as e:
        return e.kind != "invalid"


def _product_groups(codec, prefix: bytes, length: int, known: dict) -> Iterator[list[bytes]]:
    """The well-formed characters of `length` bytes starting with `prefix`
    (two bytes), as one candidate group. PostgreSQL's verifiers (wchar.c)
    check each byte after the second by a range that depends on the lead
    byte and the length only, so the well-formed set is a product: find one
    well-formed seed, then each position's bytes with the others held.
    `known` keeps (seed, tails) per (lead, length), reused for the next
    second byte when the seed is well-formed after it too."""
    key = (prefix[0], length)
    hit = known.get(key)
    if hit is not None and _wellformed(codec, prefix + hit[0]):
        yield [prefix + t for t in hit[1]]
        return
    rest = length - len(prefix)
    seed = next((c for c in _combos(rest) if _wellformed(codec, prefix + c)), None)
    if seed is None:
        return
    allowed = [[x for x in range(256)
                if _wellformed(codec, prefix + seed[:k] + bytes([x]) + seed[k + 1:])]
               for k in range(rest)]
    tails = [bytes(t) for t in itertools.product(*allowed)]
    known[key] = (seed, tails)
    yield [prefix + t for t in tails]


def _combos(n: int) -> Iterator[bytes]:
    for t in itertools.product(_SEED_BYTES, repeat=n):
        yield bytes(t)


def candidate_groups(codec) -> Iterator[tuple[int, list[bytes]]]:
    """(length, candidates): byte sequences that may be characters, all of one
    length, grouped by prefix; every well-formed character is in exactly one
    group (the lead byte gives char_length, for GB18030 with the second)."""
    singles = []
    known: dict = {}
    pad = b"\xa1\xa1\xa1"
    for b in range(256):
        lead = bytes([b])
        if codec.char_length(lead + pad) == 1:
            singles.append(lead)
            continue
        pairs = []
        for s in range(256):
            prefix = bytes([b, s])
            length = codec.char_length(prefix + pad)
            if length == 2:
                pairs.append(prefix)
            elif length > 2:
                for group in _product_groups(codec, prefix, length, known):
                    yield length, group
        if pairs:
            yield 2, pairs
    yield 1, singles


@dataclass
class Count:
    total: int = 0          # characters PostgreSQL reads
    misread: int = 0        # of them, read otherwise or rejected by the Python codec
    sent: int = 0           # of the total, those PostgreSQL also writes as these bytes
    sent_misread: int = 0   # of the misread, those PostgreSQL also writes as these bytes
    examples: list = field(default_factory=list)  # (bytes, PostgreSQL's text) of misreads


def _python_reads(pyname: str, data) -> Optional[str]:
    try:
        return bytes(data).decode(pyname)
    except (UnicodeError, LookupError):
        return None


def count(encoding: str, pyname: Optional[str], keep: int = 0) -> Count:
    """Counts PostgreSQL's characters in `encoding` and, when pyname is given,
    those the Python codec misreads (keeping up to `keep` examples; -1: all)."""
    codec = pgcodec.lookup(encoding)
    out = Count()

    def compare(cands: list[bytes], length: int, pg_text: str) -> None:
        # All of cands are PostgreSQL characters reading as pg_text together.
        out.total += len(cands)
        _sent(cands, pg_text)
        if pyname is None:
            return
        _judge(cands, pg_text)

    def _writes_back(data: bytes, text: str) -> bool:
        try:
            return codec.encode(text) == data
        except pgcodec.EncodeError:
            return False

    def _sent(cands: list[bytes], pg_text: Optional[str]) -> None:
        # A server sends a character as these bytes only if PostgreSQL
        # writes its text back to them (not so for many-to-one reads).
        data = b"".join(cands)
        if pg_text is None:
            pg_text = codec.decode(data)
        if _writes_back(data, pg_text):
            out.sent += len(cands)
        elif len(cands) > 1:
            half = len(cands) // 2
            _sent(cands[:half], None)
            _sent(cands[half:], None)

    def _judge(cands: list[bytes], pg_text: Optional[str]) -> None:
        data = b"".join(cands)
        if pg_text is None:
            pg_text = codec.decode(data)
        if _python_reads(pyname, data) == pg_text:
            return
        if len(cands) == 1:
            out.misread += 1
            out.sent_misread += _writes_back(data, pg_text)
            if keep < 0 or len(out.examples) < keep:
                out.examples.append((cands[0], pg_text))
            return
        half = len(cands) // 2
        _judge(cands[:half], None)
        _judge(cands[half:], None)

    # Runs of unmappable characters of three and four bytes (most of
    # MULE_INTERNAL's, EUC_TW's and GB18030's space: millions) are skipped in
    # blocks: errors="replace" turns each well-formed character without a
    # mapping into one U+FFFD, so a block that reads as nothing but U+FFFD
    # has no character -- unless one of its characters reads as U+FFFD. The
    # bytes PostgreSQL writes for U+FFFD are never skipped; other bytes read
    # as U+FFFD (BIG5 a2 40) exist in PostgreSQL's tables only among the
    # two-byte characters, which are each decoded strictly (a run without
    # the skip finds the same totals for all 42, in 30 s instead of 3).
    try:
        fffd = codec.encode("\ufffd")
    except pgcodec.EncodeError:
        fffd = None

    def unmapped(chunk, data, pos, k, length) -> bool:
        if fffd is not None and len(fffd) == length and fffd in chunk[pos:pos + k]:
            return False
        return codec.decode(data[pos * length:(pos + k) * length], errors="replace") == "\ufffd" * k

    for length, group in candidate_groups(codec):
        for start in range(0, len(group), 4096):
            chunk = group[start:start + 4096]
            data = memoryview(b"".join(chunk))
            pos = 0
            while pos < len(chunk):
                try:
                    text = codec.decode(data[pos * length:])
                    compare(chunk[pos:], length, text)
                    break
                except pgcodec.DecodeError as e:
                    bad = pos + e.offset // length
                    if bad > pos:
                        compare(chunk[pos:bad], length, codec.decode(data[pos * length:bad * length]))
                    pos = bad + 1
                step = 8
                while length >= 3 and pos < len(chunk):
                    k = min(step, len(chunk) - pos)
                    if unmapped(chunk, data, pos, k, length):
                        pos += k
                        step *= 2
                    elif k <= 8:
                        break
                    else:
                        step = 8
    return out


def sent_misreads(encoding: str, pyname: Optional[str], limit: int = 40) -> list[bytes]:
    """Up to `limit` characters the Python codec misreads that a server also
    sends as these bytes: PostgreSQL writes their text back to the same bytes
    (a character PostgreSQL only reads, such as SJIS's NEC-selected IBM
    duplicates, reaches a client as other bytes)."""
    codec = pgcodec.lookup(encoding)
    out = []
    for b, text in count(encoding, pyname, keep=-1).examples:
        try:
            if codec.encode(text) == b:
                out.append(b)
        except pgcodec.EncodeError:
            pass
        if len(out) >= limit:
            break
    return out


def syntax_trail_characters(encoding: str, per_byte: int = 2) -> list[str]:
    """Characters of the BMP that PostgreSQL reads back as themselves in
    `encoding` and whose bytes after the first include one of an array
    literal's or COPY's ASCII syntax bytes (backslash, quote, braces, comma,
    white space): what a driver splitting encoded text on bytes misreads.
    Up to `per_byte` for each such byte found; empty in encodings whose trail
    bytes cannot be those."""
    codec = pgcodec.lookup(encoding)
    syntax = set(b'\\"{},\t\n\r\v\f ')
    found: dict[int, list[str]] = {}
    for cp in range(0x80, 0x10000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        try:
            b = codec.encode(chr(cp))
        except pgcodec.EncodeError:
            continue
        hits = syntax.intersection(b[1:])
        if not hits or any(len(found.get(h, ())) >= per_byte for h in hits):
            continue
        try:
            if codec.decode(b) != chr(cp):
                continue
        except pgcodec.DecodeError:  # JOHAB writes some it cannot read
            continue
        for h in hits:
            found.setdefault(h, []).append(chr(cp))
    return sorted({c for chars in found.values() for c in chars})


def sample_characters(encoding: str, step: int = 97) -> list[bytes]:
    """Characters across the encoding's repertoire: every step-th code point
    from U+0020 to U+FFFF that PostgreSQL writes in it and reads back as the
    same code point, as its bytes (PostgreSQL writes some code points as
    bytes it reads otherwise, or not at all: EUC_TW planes 8 and up)."""
    codec = pgcodec.lookup(encoding)
    out = []
    for cp in range(0x20, 0x10000, step):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        try:
            b = codec.encode(chr(cp))
            if codec.decode(b) == chr(cp):
                out.append(b)
        except (pgcodec.EncodeError, pgcodec.DecodeError):
            pass
    return out


# --- the registry -------------------------------------------------------------

def source_dir() -> Path:
    env = os.environ.get("PGCODEC_SOURCE_DIR")
    return Path(env) if env else Path(__file__).resolve().parents[2]


def registry_inputs(encoding: str, pyname: str) -> Optional[set[bytes]]:
    """The decode inputs of categories different-mapping and only-postgres in
    corpus/divergences/<ENC>.python-<codec>.tsv (ranges A..B expanded: every
    number from A to B), None when there is no such file."""
    path = source_dir() / "corpus" / "divergences" / f"{encoding}.python-{pyname}.tsv"
    if not path.exists():
        return None
    out = set()
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        direction, inp, _pg, _ref, category = line.split("\t")[:5]
        if direction != "decode" or category not in ("different-mapping", "only-postgres"):
            continue
        if ".." in inp:
            lo, hi = inp.split("..")
            width = len(lo.split())
            for n in range(int(lo.replace(" ", ""), 16), int(hi.replace(" ", ""), 16) + 1):
                out.add(n.to_bytes(width, "big"))
        else:
            out.add(bytes.fromhex(inp))
    return out


def table(counts: Optional[dict] = None) -> str:
    """The markdown table: per encoding, per driver, misread / total, and
    the same for the characters a server sends (PostgreSQL writes their
    text as these bytes: many-to-one reads are left out).
    `counts` ((encoding, codec) -> Count) is used where it has the figure."""
    counts = {} if counts is None else counts
    lines = ["| encoding | characters | " + " | ".join(DRIVERS) + " |",
             "|---|---:|" + "---|" * len(DRIVERS)]
    sums = {d: 0 for d in DRIVERS}
    sent_sums = {d: 0 for d in DRIVERS}
    for enc in pgcodec.encodings():
        cells = []
        total = None
        for d in DRIVERS:
            py = driver_codec(d, enc)
            if (enc, py) not in counts:
                counts[(enc, py)] = count(enc, py)
            c = counts[(enc, py)]
            total = c.total
            if py is None:
                cells.append("unsupported")
            else:
                sums[d] += c.misread
                sent_sums[d] += c.sent_misread
                cells.append(f"{c.misread} / {c.total} (`{py}`; sent: {c.sent_misread} / {c.sent})")
        lines.append(f"| {enc} | {total} | " + " | ".join(cells) + " |")
    lines.append("| all | | " + " | ".join(f"{sums[d]} misread ({sent_sums[d]} sent)"
                                            for d in DRIVERS) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
    sys.exit(0)
