"""python -m pgcodec convert|check: the pgcodec CLI's convert and check, from Python.

The work is the CLI's own code (tools/pgcodec/convert.cpp's run_inputs and,
for -o, output_file.cpp's convert_to_file, run through the extension module),
so standard output, standard error, the exit status and the -o file are the
same as `pgcodec convert` / `pgcodec check` give for the same arguments and
input: 0 on success, 1 when the data has errors (or convert -c dropped
something), 2 on bad usage, an unknown encoding name, an input that cannot be
opened or read, or an output that cannot be written. The inputs are streamed
from the files Python opens; standard output is collected and written in one
piece once the command is done (-o writes the file as it goes). Unlike the
CLI, no progress is drawn, and usage errors are argparse's words.
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
`python -m pgcodec COMMAND --help` describes each command.

Exit status:
  0  success
  1  the data has errors, or convert -c dropped something
  2  bad usage, an unknown encoding name, or an input or output that cannot be
     read or written"""

_CONVERT = """\
Convert the FILEs (or standard input) from encoding FROM to encoding TO through
UTF-8, exactly as a UTF8 PostgreSQL database would take them in with
client_encoding FROM and give them out with client_encoding TO, and write the
result to standard output or, with -o, to FILE. The same as `pgcodec convert`.

Several FILEs are converted in order into one output, each on its own: a
multibyte character cut off at the end of one file is an error in that file,
byte offsets count from the start of each file, and an error names its file
("... at byte offset 7 in b.txt").

Errors (--errors):
  strict   (the default) stop at the first error, as the server does. An error in
           the input wins over an earlier character TO lacks (the server takes the
           whole value in before giving it out). Output is written up to the first
           character that fails either way; PostgreSQL's message and the byte offset
           go to standard error; exit 1.
  replace  nothing fails: an invalid byte sequence decodes to U+FFFD, a character
           TO lacks becomes '?'; exit 0.
  skip     (-c) drop what cannot be converted, as iconv -c does: each invalid byte
           sequence (conversion resumes one byte after it) and each character TO
           lacks. Standard error gets one line counting what was dropped; exit 1
           when anything was, 0 when nothing was.

With -o FILE the output is written to a temporary file beside FILE
(.FILE.pgcodec-*), synced to the disk and renamed over FILE only when the whole
run succeeded (exit 0, or 1 from -c). On any failure (an error in strict mode, a
read or write error, SIGINT, SIGTERM or SIGHUP, which end the process as they end
the CLI) the temporary file is removed and FILE is left as it was. FILE may be one
of the inputs. A new FILE gets the mode the umask gives; an existing one keeps its
mode.

-l lists the encodings (as `pgcodec list`) and exits.

Exit status: 0 converted; 1 a conversion error (strict), or something dropped
(-c); 2 bad usage, an unknown encoding, an input that cannot be read or an output
that cannot be written.

Examples:
  python -m pgcodec convert -f LATIN1 -t UTF8 < in.txt > out.txt
  python -m pgcodec convert -f SJIS -t UTF8 -o all.txt a.txt b.txt c.txt
  python -m pgcodec convert -c -f UTF8 -t LATIN1 -o latin1.txt utf8.txt"""

_CHECK = """\
Report every error in the FILEs (or standard input) as PostgreSQL would raise it
when the data is sent with client_encoding FROM to a UTF8 database, and, with
-t TO, every character that could not be given back out in encoding TO. The same
as `pgcodec check`. One line per error: byte offset, kind, SQLSTATE and
PostgreSQL's message (--json: one JSON object per line). Checking resumes one
byte after an invalid byte sequence and after the whole character when it has no
equivalent. The errors taking the input in come first, then those giving it out
in TO, each group in input order, so the first line is the error PostgreSQL
raises. With several FILEs each is checked on its own, and each line starts with
its file's name ("b.txt:7: ..."; JSON: "file"). --max-errors N lists the first N
lines of that order and stops reading when it can; standard error then says that
it stopped.

Exit status: 0 no errors; 1 any error; 2 bad usage, an unknown encoding, or an
input or output that cannot be read or written.

Examples:
  python -m pgcodec check -f WIN1252 -t LATIN1 dump.sql
  python -m pgcodec check -f SJIS --json --max-errors 100 a.csv b.csv"""


def _count(text: str) -> int:
    """--max-errors N: digits only, as the CLI takes it; beyond 2**63 it is no limit anyway."""
    if not text or text.strip("0123456789"):
        raise argparse.ArgumentTypeError(f'N must be a count of errors (0 or more), not "{text}"')
    return min(int(text), sys.maxsize)


def _convert_parser(prog: str = "python -m pgcodec convert") -> argparse.ArgumentParser:
    c = argparse.ArgumentParser(
        prog=prog, description=_CONVERT, formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="%(prog)s [-c | --errors MODE] [-o FILE] -f FROM -t TO [FILE ...]\n"
              "       %(prog)s -l")
    c.add_argument("-f", "--from", dest="source", metavar="FROM", help="encoding of the input")
    c.add_argument("-t", "--to", dest="target", metavar="TO", help="encoding of the output")
    mode = c.add_mutually_exclusive_group()
    mode.add_argument("--errors", choices=("strict", "replace", "skip"), default="strict", metavar="MODE",
                      help="strict (the default), replace or skip (see below)")
    mode.add_argument("-c", dest="drop", action="store_true", help="drop what cannot be converted: --errors skip")
    c.add_argument("-o", "--output", metavar="FILE",
                   help="write to FILE (replaced only on success) instead of standard output")
    c.add_argument("-l", "--list", action="store_true", help="list the encodings and exit (as `pgcodec list`)")
    c.add_argument("files", nargs="*", metavar="FILE",
                   help="input files, converted in order; - or nothing for standard input")
    return c


def _check_parser(prog: str = "python -m pgcodec check") -> argparse.ArgumentParser:
    k = argparse.ArgumentParser(
        prog=prog, description=_CHECK, formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="%(prog)s [--json] [--max-errors N] -f FROM [-t TO] [FILE ...]")
    k.add_argument("-f", "--from", dest="source", required=True, metavar="FROM", help="encoding of the input")
    k.add_argument("-t", "--to", dest="target", metavar="TO",
                   help="also check that every character exists in this encoding")
    k.add_argument("--json", action="store_true", help="one JSON object per error")
    k.add_argument("--max-errors", type=_count, default=0, metavar="N",
                   help="stop after N errors (0, the default: list every one)")
    k.add_argument("files", nargs="*", metavar="FILE", help="input files; - or nothing for standard input")
    return k


_SUBCOMMANDS = {"convert": (_convert_parser, "convert between two encodings as PostgreSQL does (like iconv)"),
                "check": (_check_parser, "report every encoding error in the input, as PostgreSQL would raise it")}


def _parser() -> argparse.ArgumentParser:
    """The top level: --help, --version and the subcommands' names."""
    from . import __version__
    p = argparse.ArgumentParser(prog="python -m pgcodec", description=_DESCRIPTION,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"pgcodec {__version__}",
                   help="print pgcodec's version and exit")
    sub = p.add_subparsers(dest="command", required=True, metavar="{convert,check}")
    for name, (_, summary) in _SUBCOMMANDS.items():
        sub.add_parser(name, help=summary, add_help=False)
    return p


def _parse(argv: list[str]) -> argparse.Namespace:
    # Each subcommand parses its own arguments, options and FILEs in any
    # order ("-f X a.txt -t Y b.txt"), as CLI11 does; argparse can intermix
    # them only in a parser without subparsers.
    if argv and argv[0] in _SUBCOMMANDS:
        args = _SUBCOMMANDS[argv[0]][0]().parse_intermixed_args(argv[1:])
        args.command = argv[0]
        return args
    _parser().parse_args(argv)  # help, version, or a usage error: exits
    raise AssertionError("unreachable")


def _codec(name: str, option: str):
    try:
        return _pgcodec.lookup(name)
    except LookupError:
        print(f'pgcodec: "{name}" is not a PostgreSQL encoding name ({option})', file=sys.stderr)
        return None


def _stdin():
    """Standard input for the C++ side: its descriptor, or its bytes when it has none."""
    stream = getattr(sys.stdin, "buffer", sys.stdin)
    if stream is None:
        return b""
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return stream.read()


def _open_inputs(paths: list[str], opened: list[int]) -> list[tuple[str, int | bytes]] | None:
    """Every input, opened before anything is converted (as the CLI does), so that
    a missing second file fails the run before any output; the descriptors opened
    are added to `opened`. None (said why) if one cannot be opened."""
    inputs: list[tuple[str, int | bytes]] = []
    for p in paths or ["-"]:
        if p == "-":
            inputs.append(("standard input", _stdin()))
            continue
        try:
            fd = os.open(p, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError as e:
            print(f"pgcodec: cannot open {p}: {os.strerror(e.errno or 0)}", file=sys.stderr)
            return None
        opened.append(fd)
        inputs.append((p, fd))
    return inputs


def _write(out: bytes, err: bytes, rc: int) -> int:
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


def main(argv: list[str] | None = None) -> int:
    args = _parse(sys.argv[1:] if argv is None else list(argv))
    convert = args.command == "convert"
    if convert and args.list:
        if args.source is not None or args.target is not None:
            _convert_parser().error("argument -l/--list: not allowed with -f/--from or -t/--to")
        if args.files or args.output is not None:
            print("pgcodec: convert -l takes no files and no -o", file=sys.stderr)
            return 2
        rc, out, err = _pgcodec._run_cli("list")
        return _write(out, err, rc)
    if convert and (not args.source or not args.target):
        print(f"pgcodec: convert needs {'-f FROM' if not args.source else '-t TO'} (`pgcodec convert --help`)",
              file=sys.stderr)
        return 2
    source = _codec(args.source, "-f")
    if source is None:
        return 2
    target = None
    if args.target:
        target = _codec(args.target, "-t")
        if target is None:
            return 2
    errors = getattr(args, "errors", "strict")
    skip = convert and (args.drop or errors == "skip")
    opened: list[int] = []
    try:
        inputs = _open_inputs(args.files, opened)
        if inputs is None:
            return 2
        rc, out, err = _pgcodec._run_cli(
            args.command, inputs, source, target, "strict" if skip else errors, getattr(args, "json", False),
            skip, getattr(args, "max_errors", 0), args.output if convert else None)
    finally:
        for fd in opened:
            os.close(fd)
    return _write(out, err, rc)


if __name__ == "__main__":
    sys.exit(main())
