"""python -m pgcodec convert/check against the C++ CLI: same stdout, stderr and exit status."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
import unittest

import cli_reference as ref

PYTHON = sys.executable  # ctest runs this file with /usr/bin/python3


def py_cli(*args: str, data: bytes = b"", stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([PYTHON, "-m", "pgcodec", *args], input=data, stdout=stdout, stderr=subprocess.PIPE,
                          check=False, env=os.environ)


def slurp(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


class CliMirror(unittest.TestCase):
    def setUp(self) -> None:
        ref.need_cli(self)
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_version_is_the_clis(self) -> None:
        import pgcodec
        out = ref.run("--version")
        self.assertEqual(out.returncode, 0)
        self.assertEqual(out.stdout, f"pgcodec {pgcodec.__version__}\n".encode())
        self.assertRegex(pgcodec.__version__, r"^\d+\.\d+\.\d+$")

    def file(self, data: bytes) -> str:
        path = os.path.join(self.tmp.name, f"in{len(os.listdir(self.tmp.name))}.bin")
        while os.path.exists(path):
            path += "_"
        with open(path, "wb") as f:
            f.write(data)
        return path

    def same(self, *args: str, data: bytes = b"", stdin: bool = True) -> subprocess.CompletedProcess:
        mine = py_cli(*args, data=data if stdin else b"")
        theirs = ref.run(*args, data=data if stdin else b"")
        self.assertEqual((mine.returncode, mine.stdout, mine.stderr),
                         (theirs.returncode, theirs.stdout, theirs.stderr), args)
        return mine

    INPUTS = {
        "ok": "日本語 text ① ～\n".encode("utf-8"),
        "bad utf8": b"abc\xc3(def\xff",
        "sjis": b"\x82\xa0\x87\x40a\x82",
        "nul": b"a\x00b",
        "empty": b"",
    }

    def test_convert(self) -> None:
        for label, data in self.INPUTS.items():
            for source, target in (("UTF8", "SJIS"), ("UTF8", "LATIN1"), ("SJIS", "UTF8"), ("sjis", "euc-jp"),
                                   ("UTF8", "UTF8"), ("LATIN1", "WIN1252")):
                for errors in ("strict", "replace"):
                    with self.subTest(input=label, source=source, target=target, errors=errors):
                        args = ("convert", "-f", source, "-t", target, "--errors", errors)
                        self.same(*args, data=data)
                        self.same(*args, self.file(data), stdin=False)
        r = self.same("convert", "-f", "UTF8", "-t", "LATIN1", data="a€".encode())
        self.assertEqual(r.returncode, 1)
        self.assertIn(b"has no equivalent", r.stderr)

    def test_check(self) -> None:
        for label, data in self.INPUTS.items():
            for source, target in (("UTF8", None), ("UTF8", "LATIN1"), ("SJIS", "EUC_JP"), ("SJIS", None)):
                for json in (False, True):
                    with self.subTest(input=label, source=source, target=target, json=json):
                        args = ["check", "-f", source] + (["-t", target] if target else []) + (["--json"] if json else [])
                        self.same(*args, data=data)
                        self.same(*args, self.file(data), stdin=False)

    def test_several_files(self) -> None:
        a, b = self.file("日本".encode("utf-8")), self.file(b"x\xe3\x81")  # b ends mid-character
        c, bad = self.file(b"\xff\xfe ok"), self.file(b"abc\xffdef")
        for args in (("convert", "-f", "UTF8", "-t", "SJIS", a, a),
                     ("convert", "-f", "UTF8", "-t", "SJIS", a, b, a),  # stops at b
                     ("convert", "-f", "UTF8", "-t", "LATIN1", a, bad),
                     ("convert", "-f", "UTF8", "-t", "SJIS", "--errors", "replace", a, b, c),
                     ("convert", "-f", "UTF8", a, "-t", "SJIS", "-", a),  # options among the files
                     ("check", "-f", "UTF8", a, b, c, bad),
                     ("check", "-f", "UTF8", "-t", "LATIN1", "--json", a, b, c),
                     ("check", "-f", "UTF8", "-", c)):
            with self.subTest(args=args):
                self.same(*args, data=b"from stdin \xc3")
        # A missing second file fails the run before any output.
        r = self.same("convert", "-f", "UTF8", "-t", "SJIS", a, os.path.join(self.tmp.name, "missing"), stdin=False)
        self.assertEqual((r.returncode, r.stdout), (2, b""))
        # A directory opens and fails to read: after the first file's output.
        r = self.same("convert", "-f", "UTF8", "-t", "UTF8", a, self.tmp.name, stdin=False)
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"read error on", r.stderr)

    def test_skip(self) -> None:
        for label, data in self.INPUTS.items():
            for source, target in (("UTF8", "LATIN1"), ("UTF8", "SJIS"), ("SJIS", "EUC_JP"), ("UTF8", "UTF8")):
                # --errors skip is -c: spelled out once per input.
                drop = ("--errors", "skip") if target == "UTF8" else ("-c",)
                with self.subTest(input=label, source=source, target=target, drop=drop):
                    self.same("convert", *drop, "-f", source, "-t", target, data=data)
        r = self.same("convert", "-c", "-f", "UTF8", "-t", "LATIN1", self.file("a€".encode() + b"\xffb"),
                      self.file("€".encode()), stdin=False)
        self.assertEqual((r.returncode, r.stdout), (1, b"ab"))
        self.assertEqual(r.stderr, b'pgcodec: dropped 1 invalid byte sequence and 2 characters with no '
                                   b'equivalent in encoding "LATIN1"\n')
        self.assertEqual(self.same("convert", "-c", "-f", "UTF8", "-t", "LATIN1", data=b"ok").returncode, 0)
        # -c and --errors together: bad usage in both.
        args = ("convert", "-c", "--errors", "replace", "-f", "UTF8", "-t", "LATIN1")
        self.assertEqual((py_cli(*args).returncode, ref.run(*args).returncode), (2, 2))

    def test_max_errors(self) -> None:
        errs = b"\xe2\x82\xac" b"a\xff" b"b\xfe" b"c\xe2\x82\xac\xfd"  # 3 invalid, 2 without LATIN1
        f = self.file(errs)
        for n in ("0", "1", "3", "5"):
            extras = (("--json",), ("-t", "LATIN1")) if n == "0" else ((), ("-t", "LATIN1"), ("-t", "LATIN1", "--json"))
            for extra in extras:
                with self.subTest(n=n, extra=extra):
                    self.same("check", "--max-errors", n, "-f", "UTF8", *extra, f, stdin=False)
                    self.same("check", "--max-errors", n, "-f", "UTF8", *extra, f, f, stdin=False)
                    self.same("check", "--max-errors", n, "-f", "UTF8", *extra, data=errs)
        r = self.same("check", "--max-errors", "2", "-f", "UTF8", "-t", "LATIN1", f, stdin=False)
        self.assertEqual(r.stderr, b"pgcodec: stopped after 2 errors (--max-errors)\n")
        self.same("check", "--max-errors", "99999999999999999999999", "-f", "UTF8", f, stdin=False)
        for bad in ("-1", "x", "", "+3", "3_0"):
            args = ("check", "--max-errors", bad, "-f", "UTF8")
            self.assertEqual((py_cli(*args).returncode, ref.run(*args).returncode), (2, 2), bad)

    def test_list(self) -> None:
        for args in (("convert", "-l"), ("convert", "--list")):
            r = self.same(*args)
            self.assertEqual(r.returncode, 0)
        self.assertEqual(self.same("convert", "-l").stdout, ref.run("list").stdout)
        r = self.same("convert", "-l", self.file(b"x"), stdin=False)
        self.assertEqual((r.returncode, r.stderr), (2, b"pgcodec: convert -l takes no files and no -o\n"))
        self.same("convert", "-l", "-o", os.path.join(self.tmp.name, "x"))
        args = ("convert", "-l", "-f", "UTF8")
        self.assertEqual((py_cli(*args).returncode, ref.run(*args).returncode), (2, 2))

    def test_missing_encoding(self) -> None:
        for args in (("convert", "-f", "UTF8"), ("convert", "-t", "UTF8"), ("convert",)):
            with self.subTest(args=args):
                r = self.same(*args, data=b"x")
                self.assertEqual(r.returncode, 2)

    def temps(self, name: str) -> list[str]:
        return [n for n in os.listdir(self.tmp.name) if n.startswith(f".{name}.pgcodec-")]

    def same_output_file(self, *args: str, data: bytes = b"", old: bytes | None = None) -> tuple:
        """Runs `args -o FILE` with both, FILE holding `old` first (None: no FILE); compares
        stdout, stderr, exit status and FILE afterwards, and that no temporary file is left."""
        results = []
        for who, run in (("python", py_cli), ("cli", ref.run)):
            target = os.path.join(self.tmp.name, f"out-{who}.txt")
            if old is not None:
                with open(target, "wb") as f:
                    f.write(old)
            elif os.path.exists(target):
                os.remove(target)
            r = run(*[target if a == "OUT" else a for a in args], data=data)
            content = slurp(target) if os.path.exists(target) else None
            stderr = r.stderr.replace(target.encode(), b"OUT")
            self.assertEqual(self.temps(f"out-{who}.txt"), [], (who, args))
            results.append((r.returncode, r.stdout, stderr, content))
            if os.path.exists(target):
                os.remove(target)
        self.assertEqual(results[0], results[1], args)
        return results[0]

    def test_output_file(self) -> None:
        good, bad = self.file("café".encode()), self.file(b"x" * 300000 + b"\xff")
        jp = self.file("本".encode())
        for old in (None, b"old text\n"):
            with self.subTest(old=old):
                rc, out, err, content = self.same_output_file("convert", "-f", "UTF8", "-t", "LATIN1", "-o", "OUT",
                                                              good, old=old)
                self.assertEqual((rc, out, err, content), (0, b"", b"", b"caf\xe9"))
                # Strict error, read error, unknown encoding: FILE untouched.
                for args in (("convert", "-f", "UTF8", "-t", "LATIN1", "-o", "OUT", good, bad),
                             ("convert", "-f", "UTF8", "-t", "LATIN1", "-o", "OUT", good, self.tmp.name),
                             ("convert", "-f", "UTF8", "-t", "NOPE", "-o", "OUT", good),
                             ("convert", "-f", "UTF8", "-t", "LATIN1", "-o", "OUT", good,
                              os.path.join(self.tmp.name, "missing"))):
                    rc, out, err, content = self.same_output_file(*args, old=old)
                    self.assertNotEqual(rc, 0, args)
                    self.assertEqual(content, old, args)
                # -c writes FILE (exit 1 when something was dropped); from stdin too.
                rc, out, err, content = self.same_output_file("convert", "-c", "-f", "UTF8", "-t", "LATIN1",
                                                              "-o", "OUT", data="a€".encode() + b"\xffb", old=old)
                self.assertEqual((rc, content), (1, b"ab"))
                rc, out, err, content = self.same_output_file("convert", "-f", "UTF8", "-t", "SJIS", "-o", "OUT",
                                                              jp, "-", jp, data="日本".encode(), old=old)
                self.assertEqual(rc, 0)
        # FILE may be an input; an existing FILE keeps its mode, a new one gets the umask's.
        inplace = self.file(b"a\xffb")
        os.chmod(inplace, 0o640)
        for run in (py_cli, ref.run):
            with open(inplace, "wb") as f:
                f.write(b"a\xffb")
            r = run("convert", "-c", "-f", "UTF8", "-t", "UTF8", "-o", inplace, inplace)
            self.assertEqual(r.returncode, 1)
            self.assertEqual(slurp(inplace), b"ab")
            self.assertEqual(stat.S_IMODE(os.stat(inplace).st_mode), 0o640)
        new = os.path.join(self.tmp.name, "new.txt")
        self.assertEqual(py_cli("convert", "-f", "UTF8", "-t", "UTF8", "-o", new, data=b"x").returncode, 0)
        mask = os.umask(0)
        os.umask(mask)
        self.assertEqual(stat.S_IMODE(os.stat(new).st_mode), 0o666 & ~mask)
        # No such directory, FILE a directory: exit 2, the CLI's message.
        for target in (os.path.join(self.tmp.name, "no", "such", "x"), self.tmp.name, self.tmp.name + "/"):
            with self.subTest(target=target):
                r = self.same("convert", "-f", "UTF8", "-t", "LATIN1", "-o", target, good, stdin=False)
                self.assertEqual(r.returncode, 2)
                self.assertNotEqual(r.stderr, b"")

    def test_output_file_write_error(self) -> None:
        # A file size limit (EFBIG; a full disk would give ENOSPC): exit 2, said why,
        # FILE untouched, no temporary file.
        big = self.file(b"y" * (1 << 20))
        target = os.path.join(self.tmp.name, "limited.txt")

        def limited() -> None:
            import resource
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))

        results = []
        for cmd in ([PYTHON, "-m", "pgcodec"], [ref.CLI]):
            with open(target, "wb") as f:
                f.write(b"old\n")
            r = subprocess.run([*cmd, "convert", "-f", "UTF8", "-t", "LATIN1", "-o", target, big],
                               capture_output=True, check=False, preexec_fn=limited, env=os.environ)
            results.append((r.returncode, r.stdout, r.stderr, slurp(target), self.temps("limited.txt")))
        self.assertEqual(results[0], results[1])
        self.assertEqual(results[0], (2, b"", f"pgcodec: write error on {target}: File too large\n".encode(),
                                      b"old\n", []))

    def test_interrupted_output_file(self) -> None:
        # SIGTERM, SIGINT or SIGHUP while the input stalls: the process ends by the
        # signal (as the CLI does), FILE keeps its text, the temporary file is gone.
        target = os.path.join(self.tmp.name, "kept.txt")
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            with self.subTest(sig=sig):
                with open(target, "wb") as f:
                    f.write(b"old\n")
                p = subprocess.Popen([PYTHON, "-m", "pgcodec", "convert", "-f", "LATIN1", "-t", "UTF8", "-o", target],
                                     stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     env=os.environ, restore_signals=True,
                                     preexec_fn=lambda: [signal.signal(s, signal.SIG_DFL)
                                                         for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)])
                try:
                    assert p.stdin is not None
                    p.stdin.write(b"\xe9" * 100000)
                    p.stdin.flush()
                    deadline = time.monotonic() + 10
                    while not self.temps("kept.txt") and time.monotonic() < deadline:
                        time.sleep(0.01)
                    self.assertEqual(len(self.temps("kept.txt")), 1)
                    time.sleep(0.1)
                    p.send_signal(sig)
                    self.assertEqual(p.wait(timeout=10), -sig)
                finally:
                    if p.poll() is None:
                        p.kill()
                        p.wait()
                    p.stdin.close()
                self.assertEqual(slurp(target), b"old\n")
                self.assertEqual(self.temps("kept.txt"), [])

    def test_usage_errors(self) -> None:
        for args in (("convert", "-f", "nope", "-t", "UTF8"), ("convert", "-f", "UTF8", "-t", "nope"),
                     ("check", "-f", "nope"), ("check", "-f", "UTF8", "-t", "nope")):
            with self.subTest(args=args):
                r = self.same(*args, data=b"x")
                self.assertEqual(r.returncode, 2)
        missing = os.path.join(self.tmp.name, "missing")
        self.same("convert", "-f", "UTF8", "-t", "SJIS", missing, stdin=False)
        # Bad usage: exit 2 from both, messages differ (argparse vs CLI11).
        for args in (("convert", "-f", "UTF8"), ("convert", "-f", "UTF8", "-t", "SJIS", "--errors", "ignore"),
                     ("frobnicate",), ()):
            with self.subTest(args=args):
                self.assertEqual(py_cli(*args).returncode, 2)
                self.assertEqual(ref.run(*args).returncode, 2)
        r = py_cli("convert", "--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn(b"--errors", r.stdout)

    def test_failed_write(self) -> None:
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full")
        for args in (("convert", "-f", "UTF8", "-t", "SJIS"), ("check", "-f", "UTF8")):
            with open("/dev/full", "wb") as full:
                mine = py_cli(*args, data=b"abc\xff" * 10, stdout=full)
                theirs = subprocess.run([ref.CLI, *args], input=b"abc\xff" * 10, stdout=full,
                                        stderr=subprocess.PIPE, check=False)
            self.assertEqual(mine.returncode, 2)
            self.assertEqual(theirs.returncode, 2)
            self.assertEqual(mine.stderr, b"pgcodec: write error on standard output: No space left on device\n")
            self.assertEqual(mine.stderr, theirs.stderr)


if __name__ == "__main__":
    unittest.main()
