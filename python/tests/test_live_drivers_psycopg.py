"""psycopg 3 with pgcodec.drivers.psycopg against a throwaway server.

For every client encoding psycopg 3 can use, characters its default codec
misreads (misreads.sent_misreads: from the same enumeration the registry
check uses) come out of the driver as the text the server holds once pgcodec
is installed, and without it they do not; str parameters are encoded by
pgcodec; a character the client encoding lacks raises pgcodec.EncodeError
with the server's SQLSTATE and message; SET client_encoding is honoured.
"""

import unittest

import pgcodec
import pgcodec.drivers.psycopg as pgdrv
import psycopg
from psycopg import _encodings

import misreads
import tempserver

DSN = ""


def setUpModule():
    global DSN
    DSN = tempserver.server_dsn()


def tearDownModule():
    tempserver.stop_shared()


# Client encodings of a UTF8 database psycopg 3 can use: every one it has a
# Python codec for. SQL_ASCII is psycopg's "no encoding" (bytes) and stays out.
USABLE = [e for e in pgcodec.encodings()
          if e.encode() in _encodings.py_codecs and e != "SQL_ASCII"]

# Server side: rows of (bytes in ENC) -> the text the server holds, and the
# same text as UTF-8 bytes, which reach the client whatever its encoding.
# Arrays go as binary parameters (%b), which carry each element whole.
HELD = ("SELECT convert_from(b, %(enc)s) AS t, convert_to(convert_from(b, %(enc)s), 'UTF8') AS u "
        "FROM unnest(%(chars)b::bytea[]) WITH ORDINALITY AS x(b, n) ORDER BY n")


def connect(enc, install):
    conn = psycopg.connect(DSN, client_encoding=enc, autocommit=True)
    if install:
        pgdrv.install(conn)
    return conn


def fetch(conn, enc, chars):
    """(texts as the driver reads them, texts the server holds)."""
    rows = conn.execute(HELD, {"enc": enc, "chars": chars}).fetchall()
    return [r[0] for r in rows], [bytes(r[1]).decode("utf-8") for r in rows]


class EveryClientEncoding(unittest.TestCase):
    def test_misread_characters_read_right(self):
        self.assertIn("SJIS", USABLE)
        self.assertNotIn("EUC_TW", USABLE)
        with_misreads = 0
        for enc in USABLE:
            py = misreads.driver_codec("psycopg", enc)
            bad = misreads.sent_misreads(enc, py)
            chars = bad + misreads.sample_characters(enc)
            with self.subTest(encoding=enc, misread=len(bad)):
                with connect(enc, install=True) as conn:
                    got, held = fetch(conn, enc, chars)
                    self.assertEqual(got, held)
                    # The same characters as parameters: pgcodec encodes them
                    # into the bytes the server reads as the held text.
                    same = conn.execute("SELECT %s::text = %s::text", [held[0], held[0]]).fetchone()
                    self.assertTrue(same[0])
                    ok = conn.execute(
                        "SELECT bool_and(convert_from(b, %(enc)s) = p) FROM "
                        "unnest(%(chars)b::bytea[], %(texts)b::text[]) AS x(b, p)",
                        {"enc": enc, "chars": chars, "texts": held}).fetchone()[0]
                    self.assertTrue(ok)
                if bad:
                    with_misreads += 1
                    with connect(enc, install=False) as conn:
                        try:
                            default, _ = fetch(conn, enc, bad)
                        except UnicodeError:
                            continue  # psycopg's codec rejects them: wrong too
                        self.assertNotEqual(default, held[:len(bad)])
        # SJIS, EUC_JP, EUC_KR, EUC_JIS_2004, BIG5, UHC, JOHAB, SHIFT_JIS_2004
        self.assertGreaterEqual(with_misreads, 8)

    def test_nec_row_13_and_ibm_extensions(self):
        # SJIS 87 40.. (NEC row 13) and fa 40.. (IBM extensions): shift_jis
        # rejects them, pgcodec reads what the server holds.
        chars = [b"\x87\x40", b"\x87\x90", b"\xfa\x40", b"\xfa\x55", b"\x81\x60"]
        with connect("SJIS", install=True) as conn:
            got, held = fetch(conn, "SJIS", chars)
            self.assertEqual(got, held)
            self.assertEqual(got, ["\u2460", "\u2252", "\u2170", "\uffe4", "\uff5e"])
        with connect("SJIS", install=False) as conn:
            with self.assertRaises(UnicodeDecodeError):
                fetch(conn, "SJIS", chars[:1])
            default, _ = fetch(conn, "SJIS", [b"\x81\x60"])
            self.assertEqual(default, ["\u301c"])  # shift_jis: WAVE DASH, not FULLWIDTH TILDE


class Parameters(unittest.TestCase):
    def test_unencodable_parameter_is_postgresql_error(self):
        with connect("SJIS", install=True) as conn:
            with self.assertRaises(pgcodec.EncodeError) as ctx:
                conn.execute("SELECT %s::text", ["x\u00e9"])
            err = ctx.exception
            self.assertIsInstance(err, UnicodeEncodeError)
            self.assertEqual(err.sqlstate, "22P05")
            self.assertEqual((err.start, err.end, err.offset), (1, 2, 1))
            # The server's own error for the same conversion.
            with self.assertRaises(psycopg.errors.UntranslatableCharacter) as srv:
                conn.execute("SELECT convert_to(chr(233), 'SJIS')")
            self.assertEqual(srv.exception.sqlstate, err.sqlstate)
            self.assertEqual(srv.exception.diag.message_primary, err.message)

    def test_binary_and_text_formats_and_types(self):
        with connect("SJIS", install=True) as conn:
            q = ("SELECT chr(9312) || chr(8786), chr(9312)::varchar, chr(9312)::bpchar, "
                 "chr(9312)::name, 'w'::\"char\", ARRAY[chr(9312), 'a'], %s::text")
            for binary in (False, True):
                with self.subTest(binary=binary):
                    row = conn.cursor(binary=binary).execute(q, ["\u2252"]).fetchone()
                    self.assertEqual(row, ("\u2460\u2252", "\u2460", "\u2460", "\u2460", "w",
                                           ["\u2460", "a"], "\u2252"))


    def test_arrays_with_trail_byte_0x5c(self):
        # psycopg's text-format array loader and dumper parse the encoded
        # bytes and take a trail byte 0x5c for a backslash (SJIS 95 5c is
        # U+8868); install() parses and builds text arrays as str. Each
        # encoding with such characters: text and binary results, text and
        # binary parameters, flat and nested, quoting and NULL.
        for enc in USABLE:
            chars = trail_5c_characters(enc, 3)
            if not chars:
                continue
            a, b, c = (chars * 3)[:3]
            # And characters with a trail byte 0x7B, 0x7D or 0x2C (a brace, a comma).
            others = misreads.syntax_trail_characters(enc)
            flat = [a, b, c, a + "\\", '"' + b, "x y", "", "NULL", "null", None, "{x}", "p,q", c * 2] + others
            nested = [[a, "\\"], [None, c + ","]]
            with self.subTest(enc=enc), connect(enc, install=True) as conn:
                for value in (flat, nested, []):
                    for binary in (False, True):
                        row = conn.cursor(binary=binary).execute(
                            "SELECT %t::text[], %b::text[], %t::text[] = %b::text[], %t::varchar[]",
                            [value] * 5).fetchone()
                        self.assertEqual(row, (value, value, True, value))
                # An array the server writes, its quoting and dimensions.
                got = conn.execute("SELECT ARRAY[%s, NULL, '', 'a b', '\\', '\"'], "
                                   "'[0:1]={x,y}'::text[], ARRAY[%s::name], ARRAY[%s::bpchar(3)]",
                                   [a, b, c]).fetchone()
                self.assertEqual(got, ([a, None, "", "a b", "\\", '"'], ["x", "y"], [b], [c + "  "]))

    def test_arrays_with_trail_byte_0x5c_break_without_pgcodec(self):
        with connect("SJIS", install=False) as conn:
            q = "SELECT ARRAY[chr(34920), 'a'], %b::text[] = ARRAY[chr(34920), 'a']"
            row = conn.cursor(binary=True).execute(q, [["\u8868", "a"]]).fetchone()
            self.assertEqual(row, (["\u8868", "a"], True))
            with self.assertRaises(UnicodeDecodeError):
                conn.execute("SELECT ARRAY[chr(34920), 'a']").fetchone()
            with self.assertRaises(psycopg.errors.InvalidTextRepresentation):
                conn.execute("SELECT %s::text[]", [["\u8868", "a"]])


def trail_5c_characters(enc: str, limit: int = 6) -> list[str]:
    """Characters whose bytes in `enc` end in 0x5C (a backslash's byte) and
    that PostgreSQL reads back as themselves: what byte-wise COPY escaping
    breaks. Empty in encodings whose trail bytes are all high."""
    codec = pgcodec.lookup(enc)
    found = []
    for cp in range(0x80, 0x10000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        try:
            b = codec.encode(chr(cp))
            if not (len(b) > 1 and b.endswith(b"\\") and codec.decode(b) == chr(cp)):
                continue
        except (pgcodec.EncodeError, pgcodec.DecodeError):  # JOHAB writes some it cannot read
            continue
        found.append(chr(cp))
        if len(found) == limit:
            break
    return found


def copy_values(enc: str) -> list[str]:
    """Values for a COPY round trip in `enc`: 0x5C-trail characters alone,
    first, last, repeated and next to a backslash, tab and newline; the
    escapes' own characters; and text across the repertoire."""
    codec = pgcodec.lookup(enc)
    values = ["abc\\def", "\\", "a\tb", "a\nb\r\n", "\b\v\f", "\\N", "", " "]
    for c in trail_5c_characters(enc):
        values += [c, c + "n", "x" + c, c * 3, c + "\\", "\\" + c, c + "\t" + c, c + "\n", c + "t"]
    values.append("".join(codec.decode(b) for b in misreads.sample_characters(enc, 997)))
    return values


def held_values(conn) -> list[str]:
    """The table's values as the server holds them (as UTF-8 bytes: no
    client codec involved)."""
    rows = conn.execute("SELECT convert_to(s, 'UTF8') FROM copy_t ORDER BY id").fetchall()
    return [bytes(r[0]).decode("utf-8") for r in rows]


class TextCopy(unittest.TestCase):
    """psycopg 3 escapes COPY's text format byte by byte; in the client-only
    encodings a trail byte 0x5C is then taken for a backslash. With pgcodec
    installed, every value goes in and comes out unchanged, in every client
    encoding psycopg can use, text and binary format."""

    def copy_in_and_out(self, conn, values, fmt):
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS copy_t (id int, s text)")
        conn.execute("TRUNCATE copy_t")
        cur = conn.cursor()
        with cur.copy(f"COPY copy_t (id, s) FROM STDIN (FORMAT {fmt})") as copy:
            if fmt == "binary":
                copy.set_types(["int4", "text"])
            for i, v in enumerate(values):
                copy.write_row((i, v))
        stored = held_values(conn)
        with cur.copy(f"COPY (SELECT s FROM copy_t ORDER BY id) TO STDOUT (FORMAT {fmt})") as copy:
            if fmt == "binary":
                copy.set_types(["text"])
            read = [row[0] for row in copy.rows()]
        return stored, read

    def test_every_client_encoding_both_ways(self):
        with_trails = 0
        for enc in USABLE:
            values = copy_values(enc)
            with_trails += len(values) > 9
            for fmt in ("text", "binary"):
                with self.subTest(encoding=enc, format=fmt):
                    with connect(enc, install=True) as conn:
                        stored, read = self.copy_in_and_out(conn, values, fmt)
                        self.assertEqual(stored, values)
                        self.assertEqual(read, values)
        # SJIS, BIG5, GBK, GB18030, SHIFT_JIS_2004. (UHC's ASCII trail bytes
        # are letters; JOHAB's ending in 0x5C PostgreSQL writes but cannot
        # read back.)
        self.assertEqual(with_trails, 5)

    def test_without_pgcodec_psycopg_corrupts(self):
        # The same round trip through psycopg alone: the test above can fail.
        # (Characters Python's shift_jis, psycopg's codec, has too.)
        values = ["\u8868", "\u8868n", "\u30bdt", "\u80fd", "abc\\def", "x\u8868\\"]
        with connect("SJIS", install=False) as conn:
            try:
                stored, read = self.copy_in_and_out(conn, values, "text")
            except psycopg.errors.DataError:
                return  # "extra data after last expected column" and the like
            self.assertNotEqual(stored, values)
        with connect("SJIS", install=False) as conn:
            pgdrv.install(conn)
            stored, read = self.copy_in_and_out(conn, values, "text")
            self.assertEqual((stored, read), (values, values))


class Contexts(unittest.TestCase):
    def test_cursor_scope_and_async_connection(self):
        with connect("SJIS", install=False) as conn:
            cur = conn.cursor()
            pgdrv.install(cur)
            self.assertEqual(cur.execute("SELECT chr(9312)").fetchone(), ("\u2460",))
            with self.assertRaises(UnicodeDecodeError) as ctx:  # another cursor: shift_jis
                conn.cursor().execute("SELECT chr(9312)").fetchone()
            self.assertNotIsInstance(ctx.exception, pgcodec.DecodeError)

        async def main():
            aconn = await psycopg.AsyncConnection.connect(DSN, client_encoding="SJIS")
            try:
                pgdrv.install(aconn)
                cur = await aconn.execute("SELECT chr(9312), %s::text", ["\u2252"])
                return await cur.fetchone()
            finally:
                await aconn.close()
        import asyncio
        self.assertEqual(asyncio.run(main()), ("\u2460", "\u2252"))

    def test_install_needs_an_adapt_context(self):
        with self.assertRaises(TypeError):
            pgdrv.install(object())
        adapters = psycopg.adapters.__class__(psycopg.adapters)  # a copy of the global map
        pgdrv.install(adapters)
        self.assertIs(adapters.get_loader(25, psycopg.pq.Format.TEXT), pgdrv.TextLoader)


class ClientEncodingChanges(unittest.TestCase):
    def test_set_client_encoding_is_honoured(self):
        with connect("SJIS", install=True) as conn:
            q = "SELECT chr(9312) || chr(12354)"
            cur = conn.cursor()
            for enc in ("SJIS", "EUC_JP", "UTF8", "GB18030", "SJIS"):
                conn.execute(f"SET client_encoding TO '{enc}'")
                self.assertEqual(conn.pgconn.parameter_status(b"client_encoding"), enc.encode())
                # The same query object again: psycopg keeps the cursor's
                # Transformer and its loaders; they re-read the encoding.
                self.assertEqual(cur.execute(q).fetchone(), ("\u2460\u3042",))
                self.assertEqual(conn.execute("SELECT %s::text", ["\u2460"]).fetchone(), ("\u2460",))

    def test_unknown_encoding_is_not_silent(self):
        with self.assertRaises(pgdrv.UnsupportedEncoding) as ctx:
            pgcodec.drivers.codec_for_parameter(b"KLINGON", "psycopg")
        self.assertIsInstance(ctx.exception, LookupError)
        self.assertIn("'KLINGON'", str(ctx.exception))


class MissingEncodings(unittest.TestCase):
    def test_euc_tw_refused_by_psycopg_usable_with_pgcodec(self):
        with psycopg.connect(DSN, autocommit=True) as conn:
            conn.execute("SET client_encoding TO 'EUC_TW'")
            with self.assertRaises(psycopg.NotSupportedError):
                conn.execute("SELECT 1")
        added = pgdrv.enable_missing_encodings()
        self.assertEqual(added, ["EUC_TW", "MULE_INTERNAL"])
        chars = misreads.sample_characters("EUC_TW")
        with connect("EUC_TW", install=True) as conn:
            got, held = fetch(conn, "EUC_TW", chars)
            self.assertEqual(got, held)
            self.assertEqual(conn.execute("SELECT '\u4e2d\u6587', %s::text",
                                          ["\u4e2d\u6587"]).fetchone(), ("\u4e2d\u6587",) * 2)


if __name__ == "__main__":
    unittest.main()
