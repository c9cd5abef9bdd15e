"""errors= as CPython's codecs take it: every standard handler and a registered
one, both directions, in Codec.decode/encode, the registered pgcodec-<name>
codecs, the incremental codecs, StreamDecoder and open(); and CPython's own
cp932 / gbk / cp1252 on inputs where their mappings agree with PostgreSQL's
(same output, same positions handed to the handler).

Run by ctest as Python.test_errors (PYTHONPATH=<build>/python).
"""

from __future__ import annotations

import codecs
import io
import os
import random
import tempfile
import unittest

import pgcodec

pgcodec.register()

# Positions handed to the recording handler, per call.
_seen: list[tuple[str, int, int]] = []


def _recording(exc: UnicodeError):
    """A handler registered with codecs.register_error: notes where it was
    called and replaces with a marker that names the span."""
    _seen.append((type(exc).__name__, exc.start, exc.end))
    if isinstance(exc, UnicodeDecodeError):
        return f"<{exc.object[exc.start:exc.end].hex()}>", exc.end
    return f"<{exc.end - exc.start}>", exc.end


codecs.register_error("pgcodec-test-record", _recording)


def _resume_earlier(exc: UnicodeError):
    # A handler may resume anywhere: here one position after the start.
    return "!", exc.start + 1


codecs.register_error("pgcodec-test-resume", _resume_earlier)


def _returns_bytes(exc: UnicodeError):
    return b"##", exc.end


codecs.register_error("pgcodec-test-bytes", _returns_bytes)


class DecodeHandlers(unittest.TestCase):
    """SJIS, bytes 61 82 20 62 ff 63 82: PostgreSQL reports an invalid
    sequence at 1 (82 20: two bytes quoted, the character a handler replaces
    spans one), at 4 (ff) and at 6 (82 cut off by the end)."""

    data = b"a\x82 b\xffc\x82"
    sjis = pgcodec.lookup("SJIS")

    def test_strict(self) -> None:
        with self.assertRaises(pgcodec.DecodeError) as cm:
            self.sjis.decode(self.data)
        e = cm.exception
        self.assertEqual((e.offset, e.start, e.sqlstate, e.kind), (1, 1, "22021", "invalid"))
        self.assertEqual((e.start, e.end), (1, 3))  # the bytes the message quotes
        self.assertEqual(e.message, 'invalid byte sequence for encoding "SJIS": 0x82 0x20')

    def test_replace(self) -> None:
        self.assertEqual(self.sjis.decode(self.data, "replace"), "a\ufffd b\ufffdc\ufffd")

    def test_ignore(self) -> None:
        self.assertEqual(self.sjis.decode(self.data, "ignore"), "a bc")

    def test_surrogateescape_round_trips(self) -> None:
        text = self.sjis.decode(self.data, "surrogateescape")
        self.assertEqual(text, "a\udc82 b\udcffc\udc82")
        self.assertEqual(self.sjis.encode(text, "surrogateescape"), self.data)

    def test_backslashreplace(self) -> None:
        self.assertEqual(self.sjis.decode(self.data, "backslashreplace"), "a\\x82 b\\xffc\\x82")

    def test_encode_only_handlers_refuse_as_in_cpython(self) -> None:
        for h in ("xmlcharrefreplace", "namereplace"):
            with self.assertRaises(TypeError) as ours:
                self.sjis.decode(self.data, h)
            with self.assertRaises(TypeError) as theirs:
                self.data.decode("cp932", h)
            self.assertIn("don't know how to handle", str(ours.exception))
            self.assertIn("don't know how to handle", str(theirs.exception))

    def test_registered_handler_gets_postgresql_positions(self) -> None:
        _seen.clear()
        self.assertEqual(self.sjis.decode(self.data, "pgcodec-test-record"), "a<82> b<ff>c<82>")
        self.assertEqual(_seen, [("DecodeError", 1, 2), ("DecodeError", 4, 5), ("DecodeError", 6, 7)])

    def test_handler_may_resume_anywhere(self) -> None:
        self.assertEqual(pgcodec.lookup("UTF8").decode(b"a\xe3\x81\xff", "pgcodec-test-resume"), "a!!!")

    def test_handler_exception_is_postgresqls(self) -> None:
        def check(exc):
            self.assertIsInstance(exc, pgcodec.DecodeError)
            self.assertEqual(exc.message, 'invalid byte sequence for encoding "SJIS": 0x82 0x20')
            self.assertEqual((exc.offset, exc.sqlstate, exc.encoding), (1, "22021", "SJIS"))
            raise KeyError("stop")
        codecs.register_error("pgcodec-test-check", check)
        with self.assertRaises(KeyError):
            self.sjis.decode(self.data, "pgcodec-test-check")

    def test_unknown_handler_is_looked_up_at_the_first_error(self) -> None:
        self.assertEqual(self.sjis.decode(b"abc", "no-such-handler"), "abc")  # as CPython: no error, no lookup
        with self.assertRaises(LookupError):
            self.sjis.decode(self.data, "no-such-handler")

    def test_bad_handler_results(self) -> None:
        with self.assertRaises(TypeError):
            self.sjis.decode(self.data, "pgcodec-test-bytes")

    def test_every_registered_form(self) -> None:
        for h in ("ignore", "surrogateescape", "backslashreplace", "pgcodec-test-record"):
            with self.subTest(handler=h):
                want = self.sjis.decode(self.data, h)
                self.assertEqual(self.data.decode("pgcodec-sjis", h), want)
                self.assertEqual(codecs.decode(self.data, "pgcodec-sjis", h), want)
                # Incremental, one byte at a time: the cut-off 82 is only an
                # error once the input is final.
                dec = codecs.getincrementaldecoder("pgcodec-sjis")(h)
                got = "".join(dec.decode(bytes([b])) for b in self.data) + dec.decode(b"", final=True)
                self.assertEqual(got, want)
                # StreamDecoder, by name and by Codec, every split.
                for split in range(len(self.data) + 1):
                    s = pgcodec.StreamDecoder("sjis", h)
                    got = s.feed(self.data[:split]) + s.feed(self.data[split:]) + s.finish()
                    self.assertEqual(got, want, split)
                s = pgcodec.StreamDecoder(self.sjis, h)
                self.assertEqual(s.feed(self.data) + s.finish(), want)
                # open() and io.TextIOWrapper.
                self.assertEqual(io.TextIOWrapper(io.BytesIO(self.data), encoding="pgcodec-sjis",
                                                  errors=h).read(), want)

    def test_open_with_surrogateescape_round_trips_a_file(self) -> None:
        data = "表示 ｶﾅ\n".encode("cp932") + b"\xff\x82\n" + "能\n".encode("cp932")
        with tempfile.TemporaryDirectory() as d:
            src, dst = os.path.join(d, "in.txt"), os.path.join(d, "out.txt")
            with open(src, "wb") as f:
                f.write(data)
            with open(src, encoding="pgcodec-sjis", errors="surrogateescape") as f:
                lines = f.readlines()
            self.assertEqual(lines[1], "\udcff\udc82\n")
            with open(dst, "w", encoding="pgcodec-sjis", errors="surrogateescape") as f:
                f.writelines(lines)
            with open(dst, "rb") as f:
                self.assertEqual(f.read(), data)


class EncodeHandlers(unittest.TestCase):
    """LATIN1, text 'añ€b😀c\\udc80': € (index 2), 😀 (4) and the lone
    surrogate (6) have no LATIN1 form."""

    text = "añ€b😀c\udc80"
    latin1 = pgcodec.lookup("LATIN1")

    def test_strict(self) -> None:
        with self.assertRaises(pgcodec.EncodeError) as cm:
            self.latin1.encode(self.text)
        e = cm.exception
        self.assertEqual((e.start, e.end, e.offset, e.kind, e.sqlstate), (2, 3, 3, "no-equivalent", "22P05"))

    def test_replace(self) -> None:
        self.assertEqual(self.latin1.encode(self.text, "replace"), b"a\xf1?b?c?")

    def test_ignore(self) -> None:
        self.assertEqual(self.latin1.encode(self.text, "ignore"), b"a\xf1bc")

    def test_backslashreplace(self) -> None:
        self.assertEqual(self.latin1.encode(self.text, "backslashreplace"), b"a\xf1\\u20acb\\U0001f600c\\udc80")

    def test_xmlcharrefreplace(self) -> None:
        self.assertEqual(self.latin1.encode(self.text[:-1], "xmlcharrefreplace"), b"a\xf1&#8364;b&#128512;c")

    def test_namereplace(self) -> None:
        self.assertEqual(self.latin1.encode(self.text[:-1], "namereplace"),
                         b"a\xf1\\N{EURO SIGN}b\\N{GRINNING FACE}c")

    def test_surrogateescape(self) -> None:
        self.assertEqual(self.latin1.encode("a\udcff\udc80", "surrogateescape"), b"a\xff\x80")
        with self.assertRaises(pgcodec.EncodeError):  # € is no escaped byte
            self.latin1.encode("a€", "surrogateescape")

    def test_registered_handler_gets_positions_in_characters(self) -> None:
        _seen.clear()
        self.assertEqual(self.latin1.encode(self.text, "pgcodec-test-record"), b"a\xf1<1>b<1>c<1>")
        self.assertEqual(_seen, [("EncodeError", 2, 3), ("EncodeError", 4, 5), ("EncodeError", 6, 7)])

    def test_handler_may_return_bytes(self) -> None:
        self.assertEqual(self.latin1.encode("a€b", "pgcodec-test-bytes"), b"a##b")

    def test_handler_may_resume_anywhere(self) -> None:
        # resume at start + 1: each character of the error gets a '!'
        self.assertEqual(self.latin1.encode("a€€b", "pgcodec-test-resume"), b"a!!b")

    def test_unencodable_replacement(self) -> None:
        def euro(exc):
            return "€", exc.end
        codecs.register_error("pgcodec-test-euro", euro)
        with self.assertRaises(UnicodeEncodeError) as ours:
            self.latin1.encode("a😀", "pgcodec-test-euro")
        with self.assertRaises(UnicodeEncodeError):
            "a😀".encode("latin-1", "pgcodec-test-euro")
        self.assertEqual((ours.exception.start, ours.exception.end), (1, 2))

    def test_every_registered_form(self) -> None:
        text = self.text[:-1]
        for h in ("ignore", "replace", "backslashreplace", "xmlcharrefreplace", "namereplace", "pgcodec-test-record"):
            with self.subTest(handler=h):
                want = self.latin1.encode(text, h)
                self.assertEqual(text.encode("pgcodec-latin1", h), want)
                enc = codecs.getincrementalencoder("pgcodec-latin1")(h)
                got = b"".join(enc.encode(ch) for ch in text) + enc.encode("", final=True)
                self.assertEqual(got, want)
                buf = io.BytesIO()
                w = io.TextIOWrapper(buf, encoding="pgcodec-latin1", errors=h)
                w.write(text)
                w.flush()
                self.assertEqual(buf.getvalue(), want)

    def test_multibyte_encode_positions(self) -> None:
        _seen.clear()
        sjis = pgcodec.lookup("SJIS")
        self.assertEqual(sjis.encode("あ😀い€", "pgcodec-test-record"), b"\x82\xa0<1>\x82\xa2<1>")
        self.assertEqual(_seen, [("EncodeError", 1, 2), ("EncodeError", 3, 4)])


class AgainstCPython(unittest.TestCase):
    """CPython's cp932, gbk and cp1252 against SJIS, GBK and WIN1252 where the
    mappings agree: characters that both encode to the same bytes, mixed
    with errors both see at the same place with the same span. Every
    handler must then give the same str / bytes, and a recording handler
    the same positions."""

    PAIRS = (("SJIS", "cp932"), ("GBK", "gbk"), ("WIN1252", "cp1252"))
    DECODE_HANDLERS = ("strict", "replace", "ignore", "surrogateescape", "backslashreplace", "pgcodec-test-record")
    ENCODE_HANDLERS = ("strict", "replace", "ignore", "backslashreplace", "xmlcharrefreplace", "namereplace",
                       "pgcodec-test-record")

    @staticmethod
    def agreed_characters(name: str, py: str) -> list[str]:
        c = pgcodec.lookup(name)
        out = []
        for cp in list(range(0x20, 0x7F)) + list(range(0xA0, 0x3000, 7)) + list(range(0x3000, 0xA000, 13)) + \
                list(range(0xFF00, 0xFFF0)):
            ch = chr(cp)
            try:
                mine = c.encode(ch)
                theirs = ch.encode(py)
            except UnicodeError:
                continue
            if mine == theirs and c.decode(mine) == ch and mine.decode(py) == ch:
                out.append(ch)
        return out

    def setUp(self) -> None:
        self.rng = random.Random(int(os.environ.get("PGCODEC_TEST_SEED", "24")))

    def outcome(self, fn):
        _seen.clear()
        try:
            return ("ok", fn(), list(_seen))
        except UnicodeDecodeError as e:
            return ("error", "decode", e.start, e.end)
        except UnicodeEncodeError as e:
            return ("error", "encode", e.start, e.end)

    def compare(self, ours, theirs, what) -> None:
        if ours[0] == "ok" or theirs[0] == "ok":
            self.assertEqual(ours[1], theirs[1], what)
            self.assertEqual([p[1:] for p in ours[2]], [p[1:] for p in theirs[2]], what)
        else:
            self.assertEqual(ours[1:], theirs[1:], what)

    def test_decode(self) -> None:
        # Errors the two agree on: a byte no mapping has (cp1252: 81 8d 8f
        # 90 9d), and a lead byte cut off by the end of the input.
        errors = {"SJIS": [], "GBK": [], "WIN1252": [b"\x81", b"\x8d", b"\x8f", b"\x90", b"\x9d"]}
        cut_leads = {"SJIS": [b"\x82", b"\x88", b"\xe0"], "GBK": [b"\xb0", b"\xd6"], "WIN1252": []}
        for name, py in self.PAIRS:
            c = pgcodec.lookup(name)
            chars = self.agreed_characters(name, py)
            self.assertGreater(len(chars), 100, name)
            for n in range(40):
                parts = [self.rng.choice(chars).encode(py) for _ in range(self.rng.randrange(0, 30))]
                for _ in range(self.rng.randrange(0, 3)):
                    if errors[name]:
                        parts.insert(self.rng.randrange(len(parts) + 1), self.rng.choice(errors[name]))
                if cut_leads[name] and n % 2:
                    parts.append(self.rng.choice(cut_leads[name]))
                data = b"".join(parts)
                for h in self.DECODE_HANDLERS:
                    ours = self.outcome(lambda: c.decode(data, h))
                    theirs = self.outcome(lambda: data.decode(py, h))
                    self.compare(ours, theirs, f"{name} {data.hex()} {h}")

    def test_encode(self) -> None:
        missing = ["😀", "𠀋", "\u0100", "\u0e01", "\u05d0"]
        for name, py in self.PAIRS:
            c = pgcodec.lookup(name)
            chars = self.agreed_characters(name, py)
            unencodable = [m for m in missing if self.outcome(lambda: m.encode(py))[0] == "error"
                           and self.outcome(lambda: c.encode(m))[0] == "error"]
            self.assertTrue(unencodable, name)
            for _ in range(40):
                text = [self.rng.choice(chars) for _ in range(self.rng.randrange(0, 30))]
                # Each unencodable character followed by an encodable one:
                # CPython's charmap codecs (cp1252) report a run of adjacent
                # unencodable characters as one error, PostgreSQL one per
                # character.
                for _ in range(self.rng.randrange(0, 4)):
                    text.insert(self.rng.randrange(len(text) + 1),
                                self.rng.choice(unencodable) + self.rng.choice(chars))
                s = "".join(text)
                for h in self.ENCODE_HANDLERS:
                    ours = self.outcome(lambda: c.encode(s, h))
                    theirs = self.outcome(lambda: s.encode(py, h))
                    self.compare(ours, theirs, f"{name} {s!r} {h}")


if __name__ == "__main__":
    unittest.main()
