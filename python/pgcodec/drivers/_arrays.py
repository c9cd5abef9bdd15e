"""Text-format array literals of text types, read and written as a str.

Shared by the psycopg 3 and psycopg2 drivers. Both drivers split a literal
(and psycopg 3 also builds one) on its *encoded* bytes, before any decode; in
SJIS, SHIFT_JIS_2004, BIG5, GBK and GB18030 a character's trail byte
can be 0x5C, 0x7B, 0x7D or 0x2C, then taken for array syntax (SJIS 95 5C is 表),
and the literal breaks or reads wrong. PostgreSQL converts a literal to its
own encoding as a whole before array_in parses it, so the drivers here
decode (or encode) the whole literal once and parse (or build) it as a str.
"""

from __future__ import annotations

import re
from typing import Callable

__all__ = ["parse_text_array", "build_text_array", "ASCII_SYNTAX_TRAIL_ENCODINGS"]

# The encodings in which a byte after a character's first can be one of the
# array syntax's ASCII bytes ({ } , " \ or white space) in a character
# PostgreSQL reads: a driver that splits the encoded literal misreads them.
# (In UHC, EUC_*, MULE_INTERNAL and UTF8 such bytes are letters, digits or
# >= 0x80; JOHAB's 0x5C/0x7B/0x7D-trail codes are ones PostgreSQL's JOHAB
# verifier refuses, so it never sends them.) Checked against every character
# by python/tests/test_drivers_arrays.py.
ASCII_SYNTAX_TRAIL_ENCODINGS = frozenset({"SJIS", "SHIFT_JIS_2004", "BIG5", "GBK", "GB18030"})

# An array literal's tokens, as array_in reads them: a brace, a quoted element
# (backslash escapes) or an unquoted run; then the delimiter.
_ARRAY_TOKEN = re.compile(r'([{}]|"(?:[^"\\]|\\.)*"|[^"{},\\]+),?', re.S)
_UNESCAPE = re.compile(r"\\(.)", re.S)
# When array_in needs an element quoted: empty, NULL in any case, or holding
# a brace, the delimiter, a quote, a backslash or white space.
_NEEDS_QUOTES = re.compile(r'(?i)^$|["{},\\\s]|^null$')
_ESCAPE = re.compile(r'(["\\])')


def parse_text_array(s: str, element: Callable[[str], object], error: type[Exception]) -> list:
    """The (nested) list of a text-format array literal already decoded;
    `element` makes each non-NULL element's value from its str; a malformed
    literal raises `error`."""
    if s.startswith("["):  # [lower:upper]=... dimensions
        eq = s.find("=")
        if eq < 0:
            raise error("malformed array: no '=' after dimension information")
        s = s[eq + 1:]
    stack: list = []
    result = None
    current: list = []
    for m in _ARRAY_TOKEN.finditer(s):
        t = m.group(1)
        if t == "{":
            if stack:
                stack[-1].append(current)
            stack.append(current)
            current = []
        elif t == "}":
            if not stack:
                raise error("malformed array: unexpected '}'")
            result = stack.pop()
        elif not stack:
            raise error(f"malformed array: unexpected {t[:10]!r}")
        elif t == "NULL":
            stack[-1].append(None)
        else:
            stack[-1].append(element(_UNESCAPE.sub(r"\1", t[1:-1]) if t[0] == '"' else t))
    if result is None:
        raise error("malformed array: no '{'")
    return result


def build_text_array(obj: list, delimiter: str, error: type[Exception]):
    """The text-format literal of a (nested) list of str and None, as a str;
    None when an element is neither (the caller's own way then). A NUL in an
    element raises `error`, as PostgreSQL refuses it."""
    parts: list = []

    def walk(items: list) -> bool:
        parts.append("{")
        for item in items:
            if isinstance(item, list):
                if not walk(item):
                    return False
            elif item is None:
                parts.append("NULL")
            elif isinstance(item, str):
                if "\x00" in item:
                    raise error("PostgreSQL text fields cannot contain NUL (0x00) bytes")
                if _NEEDS_QUOTES.search(item) or delimiter in item:
                    item = '"' + _ESCAPE.sub(r"\\\1", item) + '"'
                parts.append(item)
            else:
                return False
            parts.append(delimiter)
        if parts[-1] == delimiter:
            parts[-1] = "}"
        else:
            parts.append("}")
        return True

    return "".join(parts) if walk(obj) else None
