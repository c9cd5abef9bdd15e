"""The C++ CLI ($PGCODEC_CLI) as the reference the Python tests compare with."""

from __future__ import annotations

import json
import os
import re
import subprocess
import unittest

CLI = os.environ.get("PGCODEC_CLI", "")

_ERROR_LINE = re.compile(r"^pgcodec: (.*) at byte offset (\d+)$")


def need_cli(case: unittest.TestCase) -> None:
    if not CLI or not os.path.exists(CLI):
        case.skipTest("PGCODEC_CLI does not name the pgcodec executable")


def run(*args: str, data: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([CLI, *args], input=data, capture_output=True, check=False)


def convert(source: str, target: str, data: bytes, errors: str = "strict"):
    """(output bytes, None) or (output so far, (message, offset)) as `pgcodec convert` reports."""
    p = run("convert", "-f", source, "-t", target, "--errors", errors, data=data)
    if p.returncode == 0:
        return p.stdout, None
    if p.returncode != 1:
        raise AssertionError(f"pgcodec convert exit {p.returncode}: {p.stderr!r}")
    m = _ERROR_LINE.match(p.stderr.decode().strip())
    assert m, p.stderr
    return p.stdout, (m.group(1), int(m.group(2)))


def check_json(source: str, data: bytes, target: str | None = None) -> list[dict]:
    args = ["check", "-f", source, "--json"] + (["-t", target] if target else [])
    p = run(*args, data=data)
    return [json.loads(line) for line in p.stdout.decode().splitlines()]


def encodings_json() -> list[dict]:
    return json.loads(run("list", "--json").stdout)
