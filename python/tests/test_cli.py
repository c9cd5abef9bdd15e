"""python -m pgcodec convert/check against the C++ CLI: same stdout, stderr and exit status."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import unittest

import cli_reference as ref

PYTHON = sys.executable  # ctest runs this file with /usr/bin/python3


def py_cli(*args: str, data: bytes = b"", stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([PYTHON, "-m", "pgcodec", *args], input=data, stdout=stdout, stderr=subprocess.PIPE,
                          check=False, env=os.environ)


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
