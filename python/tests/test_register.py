"""pgcodec.register(): the codecs search function, incremental codecs and io.TextIOWrapper."""

from __future__ import annotations

import codecs
import io
import os
import tempfile
import unittest

import pgcodec

pgcodec.register()

EUC_JP_TEXT = (
    "日本語のテキスト、ひらがな・カタカナ・漢字。ｶﾀｶﾅ 半角 ① Ⅲ ㈱ "  # 2-byte and 8E kana
    "丂丄丅丌丒丟 鷗 﨑 "                                               # JIS X 0212: 8F xx xx
    "ASCII line\n"
) * 300


class Register(unittest.TestCase):
    def test_idempotent_and_spellings(self) -> None:
        pgcodec.register()
        pgcodec.register()
        info = codecs.lookup("pgcodec-sjis")
        for spelling in ("pgcodec_sjis", "pgcodec-Shift-JIS", "PGCODEC-SJIS", "pgcodec-shift_jis", "pgcodec-win932",
                         "pgcodec-mskanji", "pgcodec.sjis"):
            self.assertIs(codecs.lookup(spelling), info, spelling)
        self.assertIs(codecs.lookup("pgcodec-euc_jp"), codecs.lookup("pgcodec-EUC-JP"))
        self.assertEqual(info.name, "pgcodec-sjis")
        for bad in ("pgcodec-nope", "pgcodecsjis", "pgcodec", "pgcodec-"):
            with self.assertRaises(LookupError, msg=bad):
                codecs.lookup(bad)
        self.assertEqual(codecs.lookup("shift_jis").name, "shift_jis")  # Python's own codecs untouched

    def test_str_and_bytes_methods(self) -> None:
        self.assertEqual(b"\x82\xa0".decode("pgcodec-sjis"), "あ")
        self.assertEqual("あ".encode("pgcodec-sjis"), b"\x82\xa0")
        # Where Python's shift_jis and PostgreSQL's SJIS differ: NEC row 13.
        self.assertEqual(b"\x87\x40".decode("pgcodec-sjis"), "①")
        self.assertEqual(b"a\x82".decode("pgcodec-sjis", "replace"), "a\ufffd")
        with self.assertRaises(UnicodeDecodeError) as cm:
            b"a\x82".decode("pgcodec-sjis")
        self.assertEqual(cm.exception.sqlstate, "22021")
        self.assertEqual(b"a\x82".decode("pgcodec-sjis", "ignore"), "a")  # every handler: test_errors.py
        enc, dec = codecs.getencoder("pgcodec-latin1"), codecs.getdecoder("pgcodec-latin1")
        self.assertEqual(enc("é"), (b"\xe9", 1))
        self.assertEqual(dec(memoryview(b"\xe9a")), ("éa", 2))

    def test_incremental_decoder(self) -> None:
        codec = pgcodec.lookup("EUC_JP")
        data = codec.encode(EUC_JP_TEXT[:200])
        cls = codecs.getincrementaldecoder("pgcodec-euc_jp")
        d = cls()
        out = "".join(d.decode(data[i:i + 1]) for i in range(len(data))) + d.decode(b"", final=True)
        self.assertEqual(out, codec.decode(data))
        d = cls()
        d.decode(b"ab\x8f\xb0")
        self.assertEqual(d.getstate(), (b"\x8f\xb0", 0))
        d2 = cls()
        d2.setstate(d.getstate())
        self.assertEqual(d2.decode(b"\xa1", final=True), codec.decode(b"\x8f\xb0\xa1"))
        with self.assertRaises(pgcodec.DecodeError):
            cls().decode(b"a\x8f", final=True)
        d = cls("replace")
        self.assertEqual(d.decode(b"a\x8f", final=True), "a\ufffd")
        self.assertEqual(d.decode(b"b", final=True), "b")  # usable after final

    def test_incremental_encoder(self) -> None:
        for name in ("SHIFT_JIS_2004", "EUC_JIS_2004", "UTF8"):
            codec = pgcodec.lookup(name)
            text = "か゚ かa ˥˩˥ ㇷ゚ 漢字"
            e = codecs.getincrementalencoder("pgcodec-" + name)()
            out = b"".join(e.encode(ch) for ch in text) + e.encode("", final=True)
            self.assertEqual(out, codec.encode(text), name)
        e = codecs.getincrementalencoder("pgcodec-latin1")()
        self.assertEqual(e.getstate(), 0)
        e.setstate(0)
        with self.assertRaises(pgcodec.EncodeError):
            e.encode("€")

    def test_text_io_wrapper_reads_exactly_one_decode(self) -> None:
        codec = pgcodec.lookup("EUC_JP")
        data = codec.encode(EUC_JP_TEXT)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "dump.txt")
            with open(path, "wb") as f:
                f.write(data)
            for chunk in (1, 2, 3, 5, 7, 64, 8192):
                with self.subTest(chunk=chunk):
                    with io.TextIOWrapper(open(path, "rb", buffering=0), encoding="pgcodec-euc_jp") as w:
                        w._CHUNK_SIZE = chunk  # characters cross every kind of read boundary
                        pieces = []
                        while piece := w.read(5):  # read() alone would decode the file in one call
                            pieces.append(piece)
                        self.assertEqual("".join(pieces), codec.decode(data))
                    with io.TextIOWrapper(io.BufferedReader(open(path, "rb", buffering=0), buffer_size=max(chunk, 1)),
                                          encoding="pgcodec-euc_jp", newline="") as w:
                        w._CHUNK_SIZE = chunk
                        lines = w.readlines()
                    self.assertEqual("".join(lines), codec.decode(data))
            # tell()/seek() are exact: the decoder's state is the bytes it keeps.
            with open(path, encoding="pgcodec-euc_jp", newline="") as w:
                w._CHUNK_SIZE = 7
                w.read(37)
                pos = w.tell()
                rest = w.read(500)
                w.seek(pos)
                self.assertEqual(w.read(500), rest)
            # An error carries the byte offset in the file.
            bad = data[:1001] + b"\xff\xfe" + data[1001:]
            with open(path, "wb") as f:
                f.write(bad)
            with self.assertRaises(pgcodec.DecodeError) as cm:
                codec.decode(bad)
            want = cm.exception
            with open(path, encoding="pgcodec-euc_jp") as w:
                w._CHUNK_SIZE = 10
                with self.assertRaises(pgcodec.DecodeError) as cm:
                    while w.read(3):
                        pass
            self.assertEqual((cm.exception.offset, cm.exception.message), (want.offset, want.message))

    def test_text_io_wrapper_writes(self) -> None:
        codec = pgcodec.lookup("EUC_JP")
        b = io.BytesIO()
        w = io.TextIOWrapper(b, encoding="pgcodec-euc_jp", newline="")
        for i in range(0, len(EUC_JP_TEXT), 97):
            w.write(EUC_JP_TEXT[i:i + 97])
        w.flush()
        self.assertEqual(b.getvalue(), codec.encode(EUC_JP_TEXT))

    def test_stream_reader_and_writer(self) -> None:
        codec = pgcodec.lookup("SJIS")
        text = "ＳＪＩＳのテキスト①\n" * 50
        raw = io.BytesIO()
        writer = codecs.getwriter("pgcodec-sjis")(raw)
        writer.write(text)
        self.assertEqual(raw.getvalue(), codec.encode(text))
        reader = codecs.getreader("pgcodec-sjis")(io.BytesIO(raw.getvalue()))
        out = []
        while chunk := reader.read(7):
            out.append(chunk)
        self.assertEqual("".join(out), text)


if __name__ == "__main__":
    unittest.main()
