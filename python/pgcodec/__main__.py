"""python -m pgcodec convert|check: the pgcodec CLI's convert and check, from Python.

The conversion itself is the CLI's own code (run through the extension
module on memory streams), so standard output, standard error and the exit
status are the same as `pgcodec convert` / `pgcodec check` give for the same
input: 0 on success, 1 when the data has errors, 2 on bad usage, an unknown
encoding name, an unreadable input or a failed write. The input is read
whole, and standard output is written in one piece once the command is done.
"""

from __future__ import annotations

import argparse
import os
import sys

from . import _pgcodec

_DESCRIPTION = """\
PostgreSQL encodings, converted exactly as the server converts them.

Encoding names are resolved as PostgreSQL resolves them: every character that is
not an ASCII letter or digit is dropped, the rest is lowercased and looked up
among PostgreSQL's aliases, so "Shift-JIS", "shift_jis" and "S.J.I.S" all name SJIS.

Exit status: 0 on success, 1 when the data has errors, 2 on bad usage, an unknown
encoding name, an unreadable input or a failed write."""

_CONVERT = """\
Convert FILE (or standard input) from encoding FROM to encoding TO through UTF-8,
exactly as a UTF8 PostgreSQL database would take it in with client_encoding FROM
and give it out with client_encoding TO. An error in the input wins over an earlier
character TO lacks (the server takes the whole value in before giving it out).
Output is written up to the first character that fails either way; PostgreSQL's
message and the byte offset go to standard error, and the exit status is 1. With
--errors replace nothing fails: bad input decodes to U+FFFD, characters TO lacks
become '?'."""

_CHECK = """\
Report every error in FILE (or standard input) as PostgreSQL would raise it when
the data is sent with client_encoding FROM to a UTF8 database, and, with -t TO,
every character that could not be given back out in encoding TO. One line per
error: byte offset, kind, SQLSTATE and PostgreSQL's message (--json: one JSON
object per line). Checking resumes one byte after an invalid byte sequence and
after the whole character when it has no equivalent. The errors taking the input
in come first, then those giving it out in TO, so the first line is the error
PostgreSQL raises. Exit status 1 if there is any error."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pgcodec", description=_DESCRIPTION,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True, metavar="{convert,check}")
    c = sub.add_parser("convert", help="convert between two encodings", description=_CONVERT,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("-f", "--from", dest="source", required=True, metavar="FROM", help="encoding of the input")
    c.add_argument("-t", "--to", dest="target", required=True, metavar="TO", help="encoding of the output")
    c.add_argument("--errors", choices=("strict", "replace"), default="strict",
                   help="strict (default) or replace")
    c.add_argument("file", nargs="?", default="-", metavar="FILE",
                   help="input file; - or nothing for standard input")
    k = sub.add_parser("check", help="list every error PostgreSQL would raise", description=_CHECK,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    k.add_argument("-f", "--from", dest="source", required=True, metavar="FROM", help="encoding of the input")
    k.add_argument("-t", "--to", dest="target", metavar="TO",
                   help="also check that every character exists in this encoding")
    k.add_argument("--json", action="store_true", help="one JSON object per error")
    k.add_argument("file", nargs="?", default="-", metavar="FILE",
                   help="input file; - or nothing for standard input")
    return p


def _codec(name: str, option: str):
    try:
        return _pgcodec.lookup(name)
    except LookupError:
        print(f'pgcodec: "{name}" is not a PostgreSQL encoding name ({option})', file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    source = _codec(args.source, "-f")
    if source is None:
        return 2
    target = None
    if args.target is not None:
        target = _codec(args.target, "-t")
        if target is None:
            return 2
    stdin = args.file in ("", "-")
    name = "standard input" if stdin else args.file
    try:
        if stdin:
            data = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as f:
                data = f.read()
    except OSError as e:
        if not stdin and e.filename is not None:
            print(f"pgcodec: cannot open {args.file}: {os.strerror(e.errno or 0)}", file=sys.stderr)
        else:
            print(f"pgcodec: read error on {name}: {os.strerror(e.errno or 0)}", file=sys.stderr)
        return 2
    rc, out, err = _pgcodec._run_cli(args.command, data, source, target,
                                     getattr(args, "errors", "strict"), getattr(args, "json", False))
    try:
        sys.stdout.buffer.write(out)
        sys.stdout.buffer.flush()
    except OSError as e:
        # As the CLI: once output fails, that is the report (no data error).
        print(f"pgcodec: write error on standard output: {os.strerror(e.errno or 0)}", file=sys.stderr)
        return 2
    sys.stderr.buffer.write(err)
    sys.stderr.buffer.flush()
    return rc


if __name__ == "__main__":
    sys.exit(main())
