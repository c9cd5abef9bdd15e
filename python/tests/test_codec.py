"""pgcodec.Codec against the C++ CLI, for every encoding, plus the module's API.

Run by ctest as Python.test_codec (PYTHONPATH=<build>/python:python/tests,
PGCODEC_CLI=the pgcodec executable).
"""

from __future__ import annotations

import codecs
import pickle
import random
import threading
import unittest

import cli_reference as ref
import pgcodec

# Text from many scripts: each encoding keeps what it has (the CLI's replace
# mode turns the rest into '?').
SAMPLE = (
    "Hello, world! 0123456789 ~`!@#$%^&*()_+-=[]{}|;':\",./<>?\\ \t\n"
    "café naïve Ångström ÿ ¡¿ « » ° ± µ ß æ ø þ ð "
    "Łódź čeština Ő ő Ţ ş ğ İ ı ċ ĝ ħ ĸ ŋ ŧ Ā ā Ė ė Į į "
    "Ελληνικά αβγ ΩΨ Русский язык ЁЖЩ ўі ґє "
    "עברית שלום العربية سلام ไทย ภาษา Tiếng Việt ễ ữ ₫ "
    "€ ‰ ™ • – — ‘ ’ “ ” … ‹ › Œ œ Š š Ž ž Ÿ ƒ ˆ ˜ "
    "日本語 ひらがな カタカナ ｶﾀｶﾅ 漢字 ～ ∥ － ￢ ①②⑳ Ⅰ Ⅻ ㈱ ㍻ 髙 﨑 纊 "
    "中文 简体 繁體 囍 〇 ㄅㄆ 한국어 조선말 갂 똠 "
    "ō か゚ ㇷ゚ ˥˩ 𠀋 𪚲 😀"
)

ENCODINGS = pgcodec.encodings()


def junk(seed: int, n: int = 600) -> bytes:
    r = random.Random(seed)
    return bytes(r.choice(b"abcXYZ \n") if r.random() < 0.5 else r.randrange(0x80, 0x100) for _ in range(n))


class EveryEncodingAgainstCli(unittest.TestCase):
    def setUp(self) -> None:
        ref.need_cli(self)

    def assert_decodes_as_cli(self, codec, data: bytes) -> None:
        """Decoding gives the CLI's text, or the CLI's error (message, offset)."""
        out, err = ref.convert(codec.name, "UTF8", data)
        for arg in (data, bytearray(data), memoryview(data)):
            if err is None:
                self.assertEqual(codec.decode(arg).encode(), out)
            else:
                with self.assertRaises(pgcodec.DecodeError) as cm:
                    codec.decode(arg)
                self.assertEqual((cm.exception.message, cm.exception.offset), err)

    def assert_encodes_as_cli(self, codec, text: str):
        """Encoding gives the CLI's bytes, or the CLI's error (message,
        offset); returns the EncodeError, None when the text encodes."""
        out, err = ref.convert("UTF8", codec.name, text.encode())
        if err is None:
            self.assertEqual(codec.encode(text), out)
            return None
        with self.assertRaises(pgcodec.EncodeError) as cm:
            codec.encode(text)
        self.assertEqual((cm.exception.message, cm.exception.offset), err)
        return cm.exception

    def test_sample_encodes_and_decodes_as_the_cli(self) -> None:
        for name in ENCODINGS:
            with self.subTest(encoding=name):
                codec = pgcodec.lookup(name)
                expected, err = ref.convert("UTF8", name, SAMPLE.encode(), "replace")
                self.assertIsNone(err)
                self.assertEqual(codec.encode(SAMPLE, "replace"), expected)
                # What PostgreSQL encodes does not always decode back (GBK's
                # 0x80, some EUC_TW and JOHAB codes): the CLI says which.
                self.assertEqual(codec.decode(expected, "replace").encode(),
                                 ref.convert(name, "UTF8", expected, "replace")[0])
                self.assert_decodes_as_cli(codec, expected)
                # Strict encoding of what the encoding has: the same bytes.
                text = codec.decode(expected, "replace").replace("\ufffd", "")
                self.assert_encodes_as_cli(codec, text)

    def test_ascii_as_the_cli(self) -> None:
        # ASCII input takes a copy path (no library call) where the library
        # says ASCII is itself: still exactly the CLI's answers, NUL included.
        ascii = bytes(range(1, 128)) * 2
        for name in ENCODINGS:
            with self.subTest(encoding=name):
                codec = pgcodec.lookup(name)
                self.assert_decodes_as_cli(codec, ascii)
                self.assert_decodes_as_cli(codec, ascii + b"\x00" + ascii)
                for text in (ascii.decode(), "a\x00b"):
                    self.assert_encodes_as_cli(codec, text)

    def test_latin1_range_as_the_cli(self) -> None:
        # A str of kind UCS1 is read by the library as Latin-1 units (LATIN1:
        # copied, where the library says U+0001..U+00FF are their own bytes):
        # still the CLI's bytes and errors, NUL included.
        rng = random.Random(7)
        chars = [chr(c) for c in range(1, 256)]
        texts = ["".join(chars), "".join(rng.choice(chars) for _ in range(300)), "é" * 50 + "\x80\xff", "é€ÿ"]
        for name in ENCODINGS:
            codec = pgcodec.lookup(name)
            for text in texts:
                with self.subTest(encoding=name, text=text[:5]):
                    self.assert_encodes_as_cli(codec, text)
                    self.assertEqual(codec.encode(text, "replace"),
                                     ref.convert("UTF8", name, text.encode(), "replace")[0])

    def test_latin1_str_with_nul_as_the_cli(self) -> None:
        # LATIN1 copies a Latin-1 str without NUL: with one, the library's
        # error (or '?'), as the CLI's. (Where a character before the NUL
        # has no code, the CLI reports the NUL first, as the server
        # validates a client's whole value first: not compared here.)
        for name in ("LATIN1", "WIN1252", "LATIN9"):
            codec = pgcodec.lookup(name)
            for text in ("é\x00ÿ", "\x00é", "ÿ" * 40 + "\x00"):
                with self.subTest(encoding=name, text=text[:5]):
                    self.assertIsNotNone(self.assert_encodes_as_cli(codec, text))
                    self.assertEqual(codec.encode(text, "replace"),
                                     ref.convert("UTF8", name, text.encode(), "replace")[0])

    def test_random_bytes_replace_as_the_cli(self) -> None:
        for i, name in enumerate(ENCODINGS):
            with self.subTest(encoding=name):
                data = junk(1000 + i)
                expected, err = ref.convert(name, "UTF8", data, "replace")
                self.assertIsNone(err)
                self.assertEqual(pgcodec.lookup(name).decode(data, "replace").encode(), expected)
                self.assertEqual(pgcodec.lookup(name).decode(memoryview(bytearray(data)), errors="replace").encode(),
                                 expected)

    def test_decode_errors_as_the_cli(self) -> None:
        for i, name in enumerate(ENCODINGS):
            codec = pgcodec.lookup(name)
            good = ref.convert("UTF8", name, SAMPLE.encode(), "replace")[0]
            for case, data in (("junk", junk(2000 + i)), ("nul", good + b"\x00abc"),
                               ("tail junk", good + junk(3000 + i, 40)), ("cut", good + b"\xff")):
                with self.subTest(encoding=name, case=case):
                    out, err = ref.convert(name, "UTF8", data)
                    if err is None:
                        self.assertEqual(codec.decode(data).encode(), out)
                        continue
                    with self.assertRaises(pgcodec.DecodeError) as cm:
                        codec.decode(data)
                    e = cm.exception
                    self.assertEqual((e.message, e.offset), err)
                    first = ref.check_json(name, data)[0]
                    self.assertEqual(e.sqlstate, first["sqlstate"])
                    self.assertEqual(e.offset, first["offset"])
                    self.assertEqual(e.kind, "invalid" if first["sqlstate"] == "22021" else "no-equivalent")
                    self.assertEqual(e.encoding, name)
                    self.assertEqual(e.object, data)
                    self.assertEqual(e.start, e.offset)
                    self.assertEqual(data[e.start:e.end].hex(" "), first["bytes"])
                    self.assertEqual(str(e), e.message)
                    self.assertEqual(e.reason, e.message)

    def test_encode_errors_as_the_cli(self) -> None:
        for name in ENCODINGS:
            codec = pgcodec.lookup(name)
            for text in (SAMPLE, "abc" + SAMPLE[::-1], "x\u0378y", "😀"):
                with self.subTest(encoding=name, text=text[:10]):
                    e = self.assert_encodes_as_cli(codec, text)
                    if e is None:
                        continue
                    first = ref.check_json("UTF8", text.encode(), name)[0]
                    self.assertEqual(e.sqlstate, first["sqlstate"])
                    self.assertEqual(e.encoding, name)
                    self.assertIs(e.object, text)
                    self.assertEqual(len(text[:e.start].encode()), e.offset)
                    self.assertEqual(text[e.start:e.end].encode().hex(" "), first["bytes"])
                    self.assertEqual(codec.encode(text, "replace"), ref.convert("UTF8", name, text.encode(), "replace")[0])

    def test_attributes_as_the_cli_lists_them(self) -> None:
        listed = ref.encodings_json()
        self.assertEqual([e["name"] for e in listed], ENCODINGS)
        for e in listed:
            c = pgcodec.lookup(e["name"])
            self.assertEqual((c.name, c.id, c.max_char_length, c.server),
                             (e["name"], e["id"], e["max_char_length"], e["server"]))
            for alias in e["aliases"]:
                self.assertIs(pgcodec.lookup(alias), c)


class CodecApi(unittest.TestCase):
    def test_lookup_caches_and_follows_postgresql_names(self) -> None:
        sjis = pgcodec.lookup("SJIS")
        for spelling in ("sjis", "Shift-JIS", "shift_jis", "S.J.I.S", "win932", "MsKanji"):
            self.assertIs(pgcodec.lookup(spelling), sjis)
        self.assertIs(pgcodec.lookup("utf-8"), pgcodec.lookup("UTF8"))
        self.assertEqual(len(ENCODINGS), 42)
        self.assertEqual(ENCODINGS[0], "SQL_ASCII")
        self.assertEqual(ENCODINGS[35], "SJIS")
        self.assertEqual(pgcodec.aliases()["shiftjis"], "SJIS")
        with self.assertRaisesRegex(LookupError, '"nope" is not a PostgreSQL encoding name'):
            pgcodec.lookup("nope")
        with self.assertRaises(LookupError):
            pgcodec.lookup("x" * 64 + "utf8")  # NAMEDATALEN
        with self.assertRaises(TypeError):
            pgcodec.lookup(b"sjis")
        with self.assertRaises(TypeError):
            pgcodec.Codec()

    def test_repr_and_pickle(self) -> None:
        c = pgcodec.lookup("euc-jp")
        self.assertEqual(repr(c), "<pgcodec.Codec EUC_JP>")
        self.assertIs(pickle.loads(pickle.dumps(c)), c)

    def test_replace(self) -> None:
        sjis = pgcodec.lookup("SJIS")
        self.assertEqual(sjis.decode(b"a\x82", "replace"), "a\ufffd")
        self.assertEqual(sjis.decode(b"a\x82", errors="replace"), "a\ufffd")
        self.assertEqual(pgcodec.lookup("LATIN1").encode("a€b", "replace"), b"a?b")

    def test_bad_errors_value(self) -> None:
        # Any str names a handler (codecs.register_error), looked up at the
        # first error as CPython does; StreamEncoder takes strict and replace.
        c = pgcodec.lookup("UTF8")
        for bad in ("STRICT", "", "no-such-handler"):
            self.assertEqual(c.decode(b"a", bad), "a")
            self.assertEqual(c.encode("a", errors=bad), b"a")
            with self.assertRaises(LookupError):
                c.decode(b"\xff", bad)
            with self.assertRaises(LookupError):
                pgcodec.lookup("LATIN1").encode("\u20ac", errors=bad)
            with self.assertRaisesRegex(ValueError, "'strict' and 'replace'"):
                pgcodec.StreamEncoder(c, bad)
        with self.assertRaises(TypeError):
            c.decode(b"a", None)
        with self.assertRaises(TypeError):
            c.decode("text")
        with self.assertRaises(TypeError):
            c.encode(b"bytes")
        with self.assertRaises(TypeError):
            c.decode(b"a", "strict", "extra")
        with self.assertRaises(TypeError):
            c.decode(data=b"a", bogus=1)

    def test_exceptions_are_unicode_errors(self) -> None:
        try:
            pgcodec.lookup("UTF8").decode(b"ab\xc3(")
        except UnicodeDecodeError as e:
            self.assertIsInstance(e, pgcodec.DecodeError)
            self.assertIsInstance(e, ValueError)
            self.assertEqual(e.message, 'invalid byte sequence for encoding "UTF8": 0xc3 0x28')
            self.assertEqual((e.sqlstate, e.offset, e.start, e.end, e.kind), ("22021", 2, 2, 4, "invalid"))
            again = pickle.loads(pickle.dumps(e))
            self.assertEqual((again.message, again.offset, again.sqlstate), (e.message, e.offset, e.sqlstate))
        else:
            self.fail("no DecodeError")
        try:
            pgcodec.lookup("LATIN1").encode("añ€")
        except UnicodeEncodeError as e:
            self.assertIsInstance(e, pgcodec.EncodeError)
            self.assertEqual((e.sqlstate, e.offset, e.start, e.end, e.kind), ("22P05", 3, 2, 3, "no-equivalent"))
            self.assertEqual(str(e), 'character with byte sequence 0xe2 0x82 0xac in encoding "UTF8" has no '
                                     'equivalent in encoding "LATIN1"')
        else:
            self.fail("no EncodeError")

    def test_lone_surrogates_are_invalid_utf8(self) -> None:
        for name in ("UTF8", "SJIS", "LATIN1", "GB18030"):
            c = pgcodec.lookup(name)
            with self.assertRaises(pgcodec.EncodeError) as cm:
                c.encode("ab\udc80cd")
            e = cm.exception
            self.assertEqual((e.sqlstate, e.kind, e.offset, e.start, e.end), ("22021", "invalid", 2, 2, 3))
            self.assertEqual(e.message, 'invalid byte sequence for encoding "UTF8": 0xed 0xb2 0x80')
            out = c.encode("ab\ud800cd\udfff", "replace")
            self.assertTrue(out.startswith(b"ab") and b"cd" in out and b"?" in out, out)
            with self.assertRaises(pgcodec.EncodeError):
                pgcodec.StreamEncoder(c).feed("x\ud800")

    def test_char_length(self) -> None:
        sjis = pgcodec.lookup("SJIS")
        data = b"\x82\xa0a\x82"
        self.assertEqual([sjis.char_length(data, i) for i in range(6)], [2, 2, 1, 1, 0, 0])  # 0xa0 leads two bytes to PostgreSQL's mblen
        self.assertEqual(sjis.char_length(bytearray(data)), 2)
        self.assertEqual(pgcodec.lookup("UTF8").char_length(memoryview(b"\xf0\x9f\x98\x80"), offset=0), 4)
        with self.assertRaises(ValueError):
            sjis.char_length(data, -1)

    def test_single_byte_str_equals_the_utf8_path(self) -> None:
        # The str the library writes directly against its own UTF-8 output.
        for name in ENCODINGS:
            c = pgcodec.lookup(name)
            if c.max_char_length != 1:
                continue
            with self.subTest(encoding=name):
                for b in range(256):
                    data = bytes([b]) * 3
                    try:
                        direct = c.decode(data)
                    except pgcodec.DecodeError as e:
                        with self.assertRaises(pgcodec.DecodeError) as cm:
                            c._decode_to_utf8(data)
                        self.assertEqual(cm.exception.message, e.message)
                        continue
                    self.assertEqual(direct, c._decode_to_utf8(data).decode())

    def test_large_inputs(self) -> None:
        text = SAMPLE * 400  # > 64 KiB: the GIL is released
        for name in ("UTF8", "GB18030", "EUC_JIS_2004"):
            c = pgcodec.lookup(name)
            data = c.encode(text, "replace")
            self.assertGreater(len(data), 64 * 1024)
            back = c.decode(data)
            self.assertEqual(c.encode(back), data)
            self.assertEqual(back, c._decode_to_utf8(data).decode())
        results = []
        threads = [threading.Thread(target=lambda: results.append(pgcodec.lookup("UTF8").decode(text.encode())))
                   for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(results, [text] * 4)

    def test_long_input_blocks(self) -> None:
        # Input of 32 KiB and more is decoded into blocks, a window of the
        # input at a time (python/src/text.cpp, decode_chained): widening,
        # errors and JIS X 0213's pairs at and around the window and block
        # edges, strict and replace, and a chunk that ends in a cut-off
        # character, all as the UTF-8 path decodes them.
        edges = (32767, 32768, 32769, 49151, 49152, 63487, 65535, 65536, 98304)
        for name, wide, pair in (("UTF8", "é中😀", None), ("SJIS", "ｱ中", None),
                                 ("GB18030", "é中😀", None), ("SHIFT_JIS_2004", "é中𠀋", b"\x86\x63")):
            c = pgcodec.lookup(name)
            unit = c.encode("中")
            for at in edges:
                for w in wide:
                    text = "a" * at + w + "中" * 3000
                    self.assertEqual(c.decode(c.encode(text)), text, (name, at, w))
                # CJK from the start: two bytes a character, the window edge
                # falls inside one.
                data = unit * (at // len(unit)) + b"a" * (at % len(unit)) + c.encode(wide) + unit * 10
                self.assertEqual(c.decode(data), c._decode_to_utf8(data).decode(), (name, at))
                if pair:
                    data = b"a" * at + pair + unit * 10
                    self.assertEqual(c.decode(data), c._decode_to_utf8(data).decode(), (name, at))
                bad = data[:at] + b"\xff" + data[at:]
                with self.assertRaises(pgcodec.DecodeError) as ours:
                    c.decode(bad)
                with self.assertRaises(pgcodec.DecodeError) as utf8:
                    c._decode_to_utf8(bad)
                self.assertEqual((ours.exception.start, ours.exception.end, ours.exception.offset, str(ours.exception)),
                                 (utf8.exception.start, utf8.exception.end, utf8.exception.offset,
                                  str(utf8.exception)), (name, at))
                self.assertEqual(c.decode(bad, "replace"), c._decode_to_utf8(bad, "replace").decode(), (name, at))
            # A chunk of a stream that ends inside a character: the rest waits.
            data = unit * 40000
            pgcodec.register()
            dec = codecs.getincrementaldecoder("pgcodec-" + name.lower())()
            got = dec.decode(data[:-1]) + dec.decode(data[-1:], final=True)
            self.assertEqual(got, "中" * 40000, name)

    def assert_decodes_as_utf8_path(self, c, data: bytes, msg) -> str | None:
        """decode(data) is the UTF-8 path's text decoded, or raises its
        error (the same offset and message); returns the text, or None."""
        try:
            want = c._decode_to_utf8(data).decode()
        except pgcodec.DecodeError as e:
            with self.assertRaises(pgcodec.DecodeError) as ours:
                c.decode(data)
            self.assertEqual((ours.exception.offset, str(ours.exception)), (e.offset, str(e)), msg)
            return None
        self.assertEqual(c.decode(data), want, msg)
        return want

    def test_short_copies(self) -> None:
        # Short ASCII input (Latin-1 in LATIN1) is copied into its str where
        # the library decodes those bytes to themselves (python/src/text.cpp,
        # kCopyDecode): the same str as the library's path, a NUL anywhere
        # still the library's error or replacement, for every encoding.
        for name in pgcodec.encodings():
            c = pgcodec.lookup(name)
            for data in (b"a", b"plain ascii, 0-9 ~\x7f", bytes(range(1, 128)), bytes(range(1, 256)),
                         bytes(range(1, 256)) * 3):
                self.assert_decodes_as_utf8_path(c, data, (name, data[:8]))
            for data in (b"\x00", b"ab\x00c", b"\xe9\x00", b"x" * 300 + b"\x00" + b"y" * 100):
                with self.assertRaises(pgcodec.DecodeError) as ours:
                    c.decode(data)
                with self.assertRaises(pgcodec.DecodeError) as utf8:
                    c._decode_to_utf8(data)
                self.assertEqual((ours.exception.offset, str(ours.exception)),
                                 (utf8.exception.offset, str(utf8.exception)), name)
                self.assertEqual(c.decode(data, "replace"), c._decode_to_utf8(data, "replace").decode(), name)

    def test_short_scan_every_position(self) -> None:
        # The short path's one scan for NUL and for a byte above 7F reads a
        # word at a time and the last bytes apart: a NUL or a high byte at
        # each position of each length up to three words, in ASCII and in
        # LATIN1 (whose str is Latin-1 exactly when a byte is above 7F: a
        # str of the wrong kind does not compare equal).
        for name in ("SQL_ASCII", "LATIN1", "UTF8", "SJIS"):
            c = pgcodec.lookup(name)
            for n in range(1, 25):
                for p in range(n):
                    for b in (b"\x00", b"\xe9", b"\x7f", b"\x01"):
                        data = b"a" * p + b + b"z" * (n - p - 1)
                        want = self.assert_decodes_as_utf8_path(c, data, (name, data))
                        if want is not None:
                            self.assertEqual(c.decode(data).isascii(), want.isascii(), (name, data))

    def test_medium_input_head(self) -> None:
        # From 257 bytes to 32 KiB the first 256 bytes are decoded on the
        # stack first (python/src/text.cpp, decode_str: into UTF-32 at once
        # for encodings with four-byte characters, Latin-1 / UCS-2 / UTF-32
        # in turn for the rest) and the str is made in the kind they need:
        # a wider character or an error before, at and after the head's end,
        # a character cut by it, strict and replace, as the UTF-8 path.
        for name, wides in (("UTF8", "é中😀"), ("GB18030", "é中😀"), ("EUC_JIS_2004", "中𠀋"),
                            ("SJIS", "ｱ中"), ("EUC_KR", "한")):
            c = pgcodec.lookup(name)
            for at in (0, 1, 128, 254, 255, 256, 257, 600):
                for w in wides:
                    for fill in ("a", "中" if name != "EUC_KR" else "한"):
                        body = c.encode(fill * 400)
                        data = body[:at] if len(c.encode(fill)) == 1 else c.encode(fill * (at // 2))
                        data = data + c.encode(w) + body
                        self.assertEqual(c.decode(data), c._decode_to_utf8(data).decode(), (name, at, w, fill))
                        bad = data[:at] + b"\xff" + data[at:]
                        self.assert_decodes_as_utf8_path(c, bad, (name, at, w, fill))
                        self.assertEqual(c.decode(bad, "replace"), c._decode_to_utf8(bad, "replace").decode(),
                                         (name, at, w, fill))

    def test_long_single_byte(self) -> None:
        # A single-byte encoding's long input is decoded straight into a str
        # of one character a byte (python/src/text.cpp, decode_str): widened
        # where the first wider character comes, an error where it is, in
        # strict and replace mode, as the UTF-8 path decodes it.
        # SQL_ASCII, one byte a character to PostgreSQL, decodes its bytes
        # as UTF-8: not this path.
        for name, wide, bad in (("WIN1252", "é€", b"\x81"), ("KOI8R", "ж", b"\x00"), ("LATIN1", "é", b"\x00"),
                                ("SQL_ASCII", "é中😀", b"\xff")):
            c = pgcodec.lookup(name)
            # (LATIN1's copy keeps the GIL below 256 KiB, the others below 64.)
            for at in (0, 255, 256, 32767, 32768, 65535, 65536, 70000, 262143, 262144):
                for w in wide:
                    text = "a" * at + w + "b" * 40000
                    self.assertEqual(c.decode(c.encode(text)), text, (name, at, w))
                data = b"a" * at + bad + c.encode(wide) * 20000
                with self.assertRaises(pgcodec.DecodeError) as ours:
                    c.decode(data)
                with self.assertRaises(pgcodec.DecodeError) as utf8:
                    c._decode_to_utf8(data)
                self.assertEqual((ours.exception.start, ours.exception.offset, str(ours.exception)),
                                 (utf8.exception.start, utf8.exception.offset, str(utf8.exception)), (name, at))
                self.assertEqual(c.decode(data, "replace"), c._decode_to_utf8(data, "replace").decode(), (name, at))

    def test_huge_output(self) -> None:
        # A str or bytes of 32 MiB and more has its data on huge pages
        # (python/src/text.cpp, prefer_huge_pages): the advice must change
        # nothing in what is stored, from the first character to the last,
        # decoding into UCS-2 and UCS-4 and encoding back.
        rng = random.Random(5)
        for name, py, alphabet, length in (("WIN1252", "cp1252", "abc é€“”", 17 << 20),
                                           ("UTF8", "utf-8", "ab é中😀", 9 << 20)):
            c = pgcodec.lookup(name)
            piece = "".join(rng.choice(alphabet) for _ in range(4096))
            text = (piece * (length // len(piece) + 1))[:length - 1] + alphabet[-1]
            data = text.encode(py)
            got = c.decode(data)
            self.assertEqual(len(got), len(text), name)
            self.assertTrue(got == text, name)
            self.assertTrue(c.encode(text) == data, name)

    def test_str_kinds(self) -> None:
        u = pgcodec.lookup("UTF8")
        for text in ("", "ascii", "\x80\xff", "é" * 10 + "a", "Ā", "中", "😀", "a\U0010FFFFb", "ÿ中😀"):
            self.assertEqual(u.decode(text.encode()), text)
            self.assertEqual(u.decode(text.encode()), u._decode_to_utf8(text.encode()).decode())
        # Every width step of the one-pass str: ASCII, then Latin-1, UCS-2,
        # UCS-4, each first met at every position of a long input.
        for name, wide in (("UTF8", "é中😀"), ("GB18030", "é中😀"), ("EUC_JIS_2004", "é中𠀋")):
            c = pgcodec.lookup(name)
            for at in (0, 1, 63, 64, 65, 4095, 4096, 70000):
                text = "a" * at + wide + "b" * 100
                self.assertEqual(c.decode(c.encode(text)), text, (name, at))
                for w in wide:
                    t = "x" * at + w
                    self.assertEqual(c.decode(c.encode(t)), t, (name, at, w))
        # Input (python/src/text.cpp decode_small up to 256 bytes, then
        # decode_ucs2_first or the UTF-32 head) whose character above
        # U+FFFF comes after a prefix, then an error: the prefix is kept
        # (widened), the rest decoded after it, the error's offset and
        # message and the replacement where the UTF-8 path has them.
        for name, wide, bad in (("UTF8", "😀", b"\xff"), ("GB18030", "😀", b"\x80"),
                                ("EUC_JIS_2004", "𠀋", b"\x8e")):
            c = pgcodec.lookup(name)
            for at in (0, 1, 7, 30, 100, 300, 2000):
                for after in (0, 1, 20):
                    data = c.encode("中" * at + wide + "b" * after) + bad + b"z"
                    with self.assertRaises(pgcodec.DecodeError) as ours:
                        c.decode(data)
                    with self.assertRaises(pgcodec.DecodeError) as utf8:
                        c._decode_to_utf8(data)
                    self.assertEqual((ours.exception.offset, str(ours.exception)),
                                     (utf8.exception.offset, str(utf8.exception)), (name, at, after))
                    self.assertEqual(c.decode(data, "replace"), c._decode_to_utf8(data, "replace").decode(),
                                     (name, at, after))
                    self.assertEqual(c.decode(data[:-2]), "中" * at + wide + "b" * after)
        # A pair of code points from one character (JIS X 0213: 86 63 is
        # U+00E6 U+0300): only its second code point is wider than Latin-1;
        # the str must widen for the pair, and no further than its widest.
        for name, data in (("SHIFT_JIS_2004", b"\x86\x63"), ("EUC_JIS_2004", b"\xab\xc4")):
            c = pgcodec.lookup(name)
            for prefix in (b"", b"a", b"a" * 100):
                text = c.decode(prefix + data)
                self.assertEqual(text, prefix.decode() + "\u00e6\u0300")
                self.assertEqual(text, c._decode_to_utf8(prefix + data).decode())
        # The binding's copies between unit widths (python/src/text.cpp,
        # convert_units: 8 or 16 units a step, then one at a time; maxchar_of
        # a word at a time): every width a str is made in from every form it
        # is decoded into, at every length modulo 16, short (decode_small's
        # narrowing) and past the stack head (decode_rest's widening).
        for name in ("UTF8", "GB18030", "EUC_JIS_2004", "WIN1252"):
            c = pgcodec.lookup(name)
            chars = [ch for ch in ("a", "é", "中", "😀") if c.encode(ch, "replace") != b"?"]
            for n in range(0, 40):
                for first in chars:
                    for then in [""] + chars:
                        for text in (first * n + then, first * (n + 200) + then + "b" * 300):
                            # (A str of a kind wider than its widest character
                            # would compare unequal: CPython compares kinds first.)
                            self.assertEqual(c.decode(c.encode(text)), text, (name, n, first, then))
        # UTF-8 past the stack head takes the str's kind from its largest
        # byte (python/src/text.cpp, utf8_level): exact for valid UTF-8, too
        # wide where an invalid byte (F0-FF) is replaced, skipped or escaped,
        # or a four-byte lead is cut off at a chunk's end; the str is then
        # narrowed. Too narrow (C0, C1, a stray continuation byte: U+FFFD is
        # wider than Latin-1) widens as the decoder asks.
        c = pgcodec.lookup("UTF8")
        for head in (b"a" * 300, "é".encode() * 200, "中".encode() * 100):
            want_head = head.decode()
            for bad in (b"\xff", b"\xf5", b"\xf0\x28", b"\xc0", b"\x80"):
                for errors in ("replace", "ignore", "surrogateescape"):
                    # CPython's str of the same bytes (these invalid bytes
                    # are replaced, skipped and escaped alike by both).
                    want = (head + bad + b"b").decode("utf-8", errors)
                    got = c.decode(head + bad + b"b", errors)
                    self.assertEqual(got, want, (head[:4], bad, errors))
                    self.assertEqual(hash(got), hash(want))
                    self.assertEqual(got.isascii(), want.isascii())
            d = pgcodec.StreamDecoder(c)
            got = d.feed(head + b"\xf0\x9f")
            self.assertEqual((got, got.isascii(), hash(got)), (want_head, want_head.isascii(), hash(want_head)))
            self.assertEqual(d.feed(b"\x98\x80") + d.finish(), "😀")
        # UTF-8 from 1 MiB (text.cpp, decode_counted): the str made at the
        # length and kind the bytes say (one character a byte that is not a
        # continuation byte); invalid input decodes to fewer characters
        # (shrunk), to more (C0 C1 replaced by two U+FFFD: the blocks from
        # the start) or to narrower ones (F0 28 replaced: narrowed), and an
        # error's prefix and offset, a chunk's cut-off character and the
        # handlers are as for short input and CPython's.
        big = 1 << 20
        for head in ("a" * big, "é" * (big // 2), "中" * (big // 3), "😀" * (big // 4),
                     "a" * big + "é中😀" + "b" * 70000):
            data = head.encode()
            self.assertEqual(c.decode(data), head)
            for bad in (b"\xff", b"\xf5", b"\xf0\x28", b"\xc0\xc1", b"\x80", b"\xe4\xb8"):
                for errors in ("replace", "ignore", "surrogateescape"):
                    # The library's UTF-8 path for replace (E4 B8 is two
                    # U+FFFD to PostgreSQL, one to CPython); CPython's for the
                    # handlers.
                    want = (c._decode_to_utf8(data + bad + b"b", errors).decode() if errors == "replace"
                            else (data + bad + b"b").decode("utf-8", errors))
                    got = c.decode(data + bad + b"b", errors)
                    self.assertEqual((got, hash(got), got.isascii()), (want, hash(want), want.isascii()),
                                     (head[:1], len(head), bad, errors))
                with self.assertRaises(pgcodec.DecodeError) as e:
                    c.decode(data + bad + b"b")
                self.assertEqual(e.exception.offset, len(data), (head[:1], bad))
            for cut in (1, 2, 3):  # a chunk that ends inside its last character
                d = pgcodec.StreamDecoder(c)
                last = head[-1].encode()
                if cut >= len(last):
                    continue
                got = d.feed(data[:len(data) - len(last) + cut])
                want = head[:-1]
                self.assertEqual((got, hash(got), got.isascii()), (want, hash(want), want.isascii()))
                self.assertEqual(d.feed(last[cut:]) + d.finish(), head[-1])
        # Random text of all widths with invalid bytes strewn in, past 1 MiB:
        # as the library's UTF-8 path in Strict (offset, message) and Replace.
        rng = random.Random(11)
        pool = ["a", " ", "é", "ÿ", "中", "😀", "\U0010FFFF"]
        invalid = [b"\xff", b"\x80", b"\xc0\xc1", b"\xe4\xb8", b"\xf0\x28", b"\xed\xa0\x80", b"\x00"]
        for round_ in range(4):
            parts = [rng.choice(pool).encode() * rng.randrange(1, 5000) for _ in range(600)]
            for _ in range(round_):
                parts.insert(rng.randrange(len(parts)), rng.choice(invalid))
            data = b"".join(parts)
            self.assertGreaterEqual(len(data), big // 2)
            data = data + data if len(data) < big else data
            self.assertEqual(c.decode(data, "replace"), c._decode_to_utf8(data, "replace").decode(), round_)
            if round_ == 0:
                self.assertEqual(c.decode(data), data.decode())
                continue
            with self.assertRaises(pgcodec.DecodeError) as ours:
                c.decode(data)
            with self.assertRaises(pgcodec.DecodeError) as lib:
                c._decode_to_utf8(data)
            self.assertEqual((ours.exception.offset, str(ours.exception)), (lib.exception.offset, str(lib.exception)))
        # A wide character's bytes only in invalid input: the count says
        # UCS-4 (an F0 lead), the text has none.
        data = "é".encode() * (big // 2) + b"\xf0\x28"
        got = c.decode(data, "replace")
        self.assertEqual((got, hash(got)), (data.decode("utf-8", "replace"), hash(data.decode("utf-8", "replace"))))
        self.assertEqual(len(got.encode("utf-32-le")), 4 * len(got))
        # GB18030 past the stack head takes the kind its first 64 bytes
        # suggest (text.cpp, gb18030_level): U+10FFFF where four bytes look
        # like a supplementary character's code, which two-byte codes and
        # digits can too (B5 DA 31 D5 C2 32 is 第1章2); U+FFFF else, too wide
        # for Latin-1 text (A8 A6 is é) and too narrow for a supplementary
        # character after those 64 bytes.
        c = pgcodec.lookup("GB18030")
        for text in ("第1章2" + "中" * 300, "é" * 300, "中" * 100 + "😀", "a" * 300 + "😀", "😀" + "中" * 300,
                     "第1章2" + "é" * 300):
            got = c.decode(c.encode(text))
            self.assertEqual((got, hash(got), got.isascii()), (text, hash(text), text.isascii()), text[:6])
        # Every str is canonical (narrowest kind): equal strs compare and hash
        # equal only then.
        for text in ("aé", "é中", "中😀", "a\u00ff"):
            c = pgcodec.lookup("GB18030")
            got = c.decode(c.encode(text))
            self.assertEqual(got, text)
            self.assertEqual(hash(got), hash(text))
            self.assertEqual(len(got.encode("utf-32-le")), 4 * len(text))


class Stubs(unittest.TestCase):
    def test_stubs_name_what_the_module_has(self) -> None:
        import ast
        import os
        path = os.path.join(os.path.dirname(pgcodec.__file__), "__init__.pyi")
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        stub = {}
        for n in tree.body:
            if isinstance(n, ast.ClassDef):
                stub[n.name] = {m.name for m in n.body if isinstance(m, ast.FunctionDef)} | \
                               {m.target.id for m in n.body if isinstance(m, ast.AnnAssign)}
            elif isinstance(n, ast.FunctionDef):
                stub[n.name] = None
        self.assertEqual(set(stub), set(pgcodec.__all__))
        for name in pgcodec.__all__:
            obj = getattr(pgcodec, name)
            if isinstance(obj, type):
                have = {a for a in vars(obj) if not a.startswith("__")}
                if issubclass(obj, UnicodeError):
                    have |= {"sqlstate", "offset", "message", "kind"}
                self.assertEqual({a for a in stub[name] if not a.startswith("__")}, have, name)


def _decodes(c, data) -> bool:
    try:
        c.decode(data)
        return True
    except pgcodec.DecodeError:
        return False


def _encodes(c, text) -> bool:
    try:
        c.encode(text)
        return True
    except pgcodec.EncodeError:
        return False


def _splits(data):
    for i in range(len(data) + 1):
        yield data[:i], data[i:]


class Streams(unittest.TestCase):
    SAMPLES = ("UTF8", "SJIS", "EUC_JP", "EUC_JIS_2004", "SHIFT_JIS_2004", "GB18030", "EUC_TW", "BIG5",
               "MULE_INTERNAL", "LATIN1", "WIN1252", "JOHAB", "UHC")

    def test_decoder_equals_one_shot_for_every_split(self) -> None:
        for name in self.SAMPLES:
            c = pgcodec.lookup(name)
            data = c.encode(SAMPLE[:120] + SAMPLE[-60:], "replace")
            mode = "strict" if _decodes(c, data) else "replace"
            whole = c.decode(data, mode)
            with self.subTest(encoding=name, errors=mode):
                for a, b in _splits(data):
                    d = pgcodec.StreamDecoder(c, mode)
                    self.assertEqual(d.feed(a) + d.feed(memoryview(b)) + d.finish(), whole)
                d = pgcodec.StreamDecoder(c, mode)
                self.assertEqual("".join(d.feed(data[i:i + 1]) for i in range(len(data))) + d.finish(), whole)

    def test_decoder_errors_count_from_the_stream_start(self) -> None:
        for name in self.SAMPLES:
            c = pgcodec.lookup(name)
            data = c.encode(SAMPLE[:60], "replace") + b"\x00" + b"tail"
            with self.assertRaises(pgcodec.DecodeError) as cm:
                c.decode(data)
            want = cm.exception
            with self.subTest(encoding=name):
                for a, b in _splits(data):
                    d = pgcodec.StreamDecoder(c)
                    with self.assertRaises(pgcodec.DecodeError) as cm:
                        d.feed(a)
                        d.feed(b)
                        d.finish()
                    e = cm.exception
                    self.assertEqual((e.offset, e.message, e.sqlstate), (want.offset, want.message, want.sqlstate))
                    self.assertEqual(e.object[e.start:e.end], data[want.start:want.end])
                    with self.assertRaises(pgcodec.DecodeError):  # stays failed
                        d.feed(b"x")

    def test_truncated_end_and_replace(self) -> None:
        c = pgcodec.lookup("SJIS")
        d = pgcodec.StreamDecoder(c)
        self.assertEqual(d.feed(b"a\x82"), "a")
        self.assertEqual(d.pending, b"\x82")
        with self.assertRaises(pgcodec.DecodeError) as cm:
            d.finish()
        self.assertEqual((cm.exception.offset, cm.exception.object), (1, b"\x82"))
        d = pgcodec.StreamDecoder(c, "replace")
        self.assertEqual(d.feed(b"a\x82") + d.finish(), c.decode(b"a\x82", "replace"))
        self.assertIs(d.codec, c)

    def test_encoder_equals_one_shot_for_every_split(self) -> None:
        for name in self.SAMPLES:
            c = pgcodec.lookup(name)
            text = c.decode(c.encode(SAMPLE[:100] + " か゚ ˥˩˥ ㇷ゚" + SAMPLE[-40:], "replace"), "replace")
            mode = "strict" if _encodes(c, text) else "replace"
            whole = c.encode(text, mode)
            with self.subTest(encoding=name, errors=mode):
                for a, b in _splits(text):
                    e = pgcodec.StreamEncoder(c, mode)
                    self.assertEqual(e.feed(a) + e.feed(b) + e.finish(), whole)

    def test_encoder_errors_count_from_the_stream_start(self) -> None:
        c = pgcodec.lookup("LATIN1")
        text = "añb€c"
        with self.assertRaises(pgcodec.EncodeError) as cm:
            c.encode(text)
        want = cm.exception
        for a, b in _splits(text):
            s = pgcodec.StreamEncoder(c)
            with self.assertRaises(pgcodec.EncodeError) as cm:
                s.feed(a)
                s.feed(b)
                s.finish()
            self.assertEqual((cm.exception.offset, cm.exception.message), (want.offset, want.message))
            self.assertEqual(cm.exception.object[cm.exception.start:cm.exception.end], "€")


if __name__ == "__main__":
    unittest.main()
