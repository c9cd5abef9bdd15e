"""psycopg2 with pgcodec.drivers.psycopg2 against a throwaway server.

psycopg2 resolves one Python codec per connection from
psycopg2.extensions.encodings; install() points that table at pgcodec's
codecs. For every client encoding psycopg2 can use, the characters its
default codec misreads read right with pgcodec and wrong without; str
parameters and the query text are encoded by pgcodec; set_client_encoding()
is honoured; EUC_TW, which psycopg2 refuses, becomes usable.
"""

import unittest

import pgcodec
import pgcodec.drivers.psycopg2 as pgdrv
import psycopg2
import psycopg2.errors
import psycopg2.extensions

import misreads
import tempserver

DSN = ""


def setUpModule():
    global DSN
    DSN = tempserver.server_dsn()


def tearDownModule():
    pgdrv.uninstall()
    tempserver.stop_shared()


USABLE = [e for e in pgcodec.encodings()
          if misreads.driver_codec("psycopg2", e) is not None and e != "SQL_ASCII"]

HELD = ("SELECT convert_from(b, %(enc)s), convert_to(convert_from(b, %(enc)s), 'UTF8') "
        "FROM unnest(%(chars)s::bytea[]) WITH ORDINALITY AS x(b, n) ORDER BY n")


def connect(enc, install):
    conn = psycopg2.connect(DSN, client_encoding=enc)
    conn.autocommit = True
    if install:
        pgdrv.install(conn)
    return conn


def fetch(conn, enc, chars):
    with conn.cursor() as cur:
        cur.execute(HELD, {"enc": enc, "chars": [psycopg2.Binary(c) for c in chars]})
        rows = cur.fetchall()
    return [r[0] for r in rows], [bytes(r[1]).decode("utf-8") for r in rows]


class PerConnection(unittest.TestCase):
    def test_misread_characters_read_right(self):
        self.assertIn("EUC_JP", USABLE)
        self.assertNotIn("EUC_TW", USABLE)
        with_misreads = []
        for enc in USABLE:
            py = misreads.driver_codec("psycopg2", enc)
            bad = misreads.sent_misreads(enc, py)
            chars = bad + misreads.sample_characters(enc)
            with self.subTest(encoding=enc, codec=py, misread=len(bad)):
                conn = connect(enc, install=True)
                try:
                    # Text values cast in C by pgcodec, but where psycopg2
                    # has its own C decoder.
                    self.assertEqual(pgdrv.text_casts_in_c(conn), enc not in ("UTF8", "LATIN1"))
                    got, held = fetch(conn, enc, chars)
                    self.assertEqual(got, held)
                    with conn.cursor() as cur:
                        cur.execute("SELECT bool_and(convert_from(b, %s) = p) FROM "
                                    "unnest(%s::bytea[], %s::text[]) AS x(b, p)",
                                    (enc, [psycopg2.Binary(c) for c in chars], held))
                        self.assertTrue(cur.fetchone()[0])
                finally:
                    conn.close()
                if bad:
                    with_misreads.append(enc)
                    conn = connect(enc, install=False)
                    try:
                        default, _ = fetch(conn, enc, bad)
                        self.assertNotEqual(default, held[:len(bad)])
                    except UnicodeError:
                        pass  # psycopg2's codec rejects them: wrong too
                    finally:
                        conn.close()
        # psycopg2 reads SJIS with cp932, which agrees with PostgreSQL.
        self.assertNotIn("SJIS", with_misreads)
        self.assertTrue({"EUC_JP", "UHC", "BIG5", "EUC_KR", "JOHAB", "EUC_JIS_2004",
                         "SHIFT_JIS_2004"} <= set(with_misreads), with_misreads)

    def test_unencodable_parameter_is_postgresql_error(self):
        conn = connect("EUC_KR", install=True)
        try:
            with conn.cursor() as cur:
                with self.assertRaises(pgcodec.EncodeError) as ctx:
                    cur.execute("SELECT %s::text", ("\u3042\u00e9",))
                err = ctx.exception
                self.assertEqual(err.sqlstate, "22P05")
                self.assertEqual((err.start, err.end), (1, 2))
                with self.assertRaises(psycopg2.errors.UntranslatableCharacter) as srv:
                    cur.execute("SELECT convert_to(chr(233), 'EUC_KR')")
                self.assertEqual(srv.exception.pgcode, err.sqlstate)
                self.assertEqual(srv.exception.diag.message_primary, err.message)
        finally:
            conn.close()

    def test_c_cast_types_arrays_nulls_errors_and_encoding_changes(self):
        conn = connect("EUC_JP", install=True)
        try:
            self.assertTrue(pgdrv.text_casts_in_c(conn))
            with conn.cursor() as cur:
                # U+2460 is EUC_JP ad a1 (NEC row 13), which euc_jp lacks.
                cur.execute("SELECT chr(9312), chr(9312)::varchar, chr(9312)::bpchar, chr(9312)::name, "
                            "'w'::\"char\", ARRAY[chr(9312), NULL, 'a'], NULL::text, ''::text")
                self.assertEqual(cur.fetchone(), ("\u2460", "\u2460", "\u2460", "\u2460", "w",
                                                  ["\u2460", None, "a"], None, ""))
            # psycopg2's own codec after set_client_encoding() (a per-connection
            # install lasts until then): the cast gives psycopg2's answer.
            conn.set_client_encoding("UTF8")
            with conn.cursor() as cur:
                cur.execute("SELECT chr(9312), ARRAY[chr(9312)]")
                self.assertEqual(cur.fetchone(), ("\u2460", ["\u2460"]))
            conn.set_client_encoding("SJIS")  # psycopg2's cp932 again
            with conn.cursor() as cur:
                cur.execute("SELECT chr(9312)")
                self.assertEqual(cur.fetchone(), ("\u2460",))
            pgdrv.install(conn)  # pgcodec's again, the same typecasters
            with conn.cursor() as cur:
                cur.execute("SELECT chr(65374)")  # FULLWIDTH TILDE: SJIS 81 60
                self.assertEqual(cur.fetchone(), ("\uff5e",))
        finally:
            conn.close()

    def test_arrays_with_syntax_bytes_in_trail_bytes(self):
        # psycopg2's array typecaster splits the encoded literal on its bytes,
        # so a trail byte 0x5C, 0x7B, 0x7D or 0x2C (SJIS 84 5C is U+042B,
        # BIG5 A2 7B U+2510) is taken for array syntax. install() reads text
        # arrays in those encodings as a str. Each encoding psycopg2 can use
        # with such characters: flat and nested, quoting, NULL, dimensions,
        # varchar[], name[], bpchar(3)[].
        tested = []
        for enc in USABLE:
            chars = misreads.syntax_trail_characters(enc)
            if not chars:
                continue
            tested.append(enc)
            a, b = chars[0], chars[-1]
            flat = chars + [a + "\\", '"' + b, "x y", "", "NULL", "null", None, "{x}", "p,q", b * 2]
            nested = [[a, "\\"], [None, b + ","]]
            with self.subTest(enc=enc):
                conn = connect(enc, install=True)
                try:
                    with conn.cursor() as cur:
                        for value in (flat, nested, []):
                            cur.execute("SELECT %s::text[], %s::varchar[]", (value, value))
                            self.assertEqual(cur.fetchone(), (value, value))
                        cur.execute("SELECT ARRAY[%s, NULL, '', 'a b', '\\', '\"'], '[0:1]={x,y}'::text[], "
                                    "ARRAY[%s::name], ARRAY[%s::bpchar(3)]", (a, b, a))
                        self.assertEqual(cur.fetchone(), ([a, None, "", "a b", "\\", '"'], ["x", "y"], [b],
                                                          [a + "  "]))
                finally:
                    conn.close()
        self.assertEqual(set(tested), {"SJIS", "SHIFT_JIS_2004", "BIG5", "GBK", "GB18030"} & set(USABLE))
        self.assertIn("SJIS", tested)

    def test_arrays_with_syntax_bytes_in_trail_bytes_break_without_pgcodec(self):
        conn = connect("SJIS", install=False)
        try:
            with conn.cursor() as cur:
                cur.execute("SELECT ARRAY[chr(1067), 'a']::text")  # U+042B, SJIS 84 5C
                self.assertEqual(cur.fetchone(), ("{\u042b,a}",))
                cur.execute("SELECT ARRAY[chr(1067), 'a']")
                try:
                    got = cur.fetchone()
                except UnicodeDecodeError:  # psycopg2 cut the literal inside the character
                    got = None
                self.assertNotEqual(got, (["\u042b", "a"],))
        finally:
            conn.close()

    def test_c_cast_raises_pgcodec_errors(self):
        # PostgreSQL writes some characters in JOHAB as bytes it cannot read
        # back; a value holding one fails in the C cast with pgcodec's error.
        johab = pgcodec.lookup("JOHAB")
        cp = next(c for c in range(0x3000, 0x10000) if not 0xD800 <= c <= 0xDFFF
                  and self._unreadable(johab, chr(c)))
        conn = connect("JOHAB", install=True)
        try:
            self.assertTrue(pgdrv.text_casts_in_c(conn))
            with conn.cursor() as cur:
                cur.execute("SELECT 'ab' || chr(%s)", (cp,))
                with self.assertRaises(pgcodec.DecodeError) as ctx:
                    cur.fetchone()
                self.assertEqual(ctx.exception.offset, 2)
                self.assertIn('encoding "JOHAB"', ctx.exception.message)
        finally:
            conn.close()

    @staticmethod
    def _unreadable(codec, ch):
        try:
            codec.decode(codec.encode(ch))
            return False
        except pgcodec.EncodeError:
            return False
        except pgcodec.DecodeError:
            return True

    def test_install_refuses_an_open_transaction(self):
        conn = psycopg2.connect(DSN, client_encoding="UHC")
        try:
            conn.cursor().execute("SELECT 1")
            with self.assertRaises(psycopg2.ProgrammingError):
                pgdrv.install(conn)
            conn.rollback()
            pgdrv.install(conn.cursor())  # a cursor: its connection
            with conn.cursor() as cur:
                cur.execute("SELECT convert_from(%s, 'UHC'), %s",
                            (psycopg2.Binary(pgcodec.lookup("UHC").encode("\u314f")), "\u314f"))
                self.assertEqual(cur.fetchone(), ("\u314f",) * 2)
        finally:
            conn.close()

    def test_sql_set_client_encoding_is_not_seen_by_psycopg2(self):
        # psycopg2 keeps its codec across a SET sent as SQL (a psycopg2
        # limitation, pgcodec or not): the next query is encoded for SJIS
        # and the server, now expecting EUC_JP, rejects its bytes.
        conn = connect("SJIS", install=True)
        try:
            with conn.cursor() as cur:
                cur.execute("SET client_encoding TO 'EUC_JP'")
                self.assertEqual(conn.encoding, "SJIS")
                with self.assertRaises(psycopg2.errors.CharacterNotInRepertoire):
                    cur.execute("SELECT %s", ("\u3042",))
        finally:
            conn.close()


class Global(unittest.TestCase):
    def setUp(self):
        pgdrv.install()

    def tearDown(self):
        pgdrv.uninstall()

    def test_set_client_encoding_is_honoured(self):
        conn = psycopg2.connect(DSN, client_encoding="UHC")
        conn.autocommit = True
        try:
            for enc in ("UHC", "EUC_JP", "UTF8", "UHC"):
                conn.set_client_encoding(enc)
                src = "UHC" if enc == "UTF8" else enc  # characters misread in it
                bad = misreads.sent_misreads(src, misreads.driver_codec("psycopg2", src), 5)
                got, held = fetch(conn, src, bad)
                self.assertEqual(got, held)
                with conn.cursor() as cur:
                    cur.execute("SELECT %s = convert_from(%s, %s)",
                                (held[0], psycopg2.Binary(bad[0]), src))
                    self.assertTrue(cur.fetchone()[0])
        finally:
            conn.close()

    def test_euc_tw_usable(self):
        conn = psycopg2.connect(DSN, client_encoding="EUC_TW")
        try:
            with conn.cursor() as cur:
                cur.execute("SELECT '\u4e2d\u6587', %s::text, current_setting('client_encoding')",
                            ("\u4e2d\u6587",))
                self.assertEqual(cur.fetchone(), ("\u4e2d\u6587", "\u4e2d\u6587", "EUC_TW"))
            chars = misreads.sample_characters("EUC_TW")
            got, held = fetch(conn, "EUC_TW", chars)
            self.assertEqual(got, held)
        finally:
            conn.close()
        pgdrv.uninstall()
        with self.assertRaises(psycopg2.OperationalError):
            psycopg2.connect(DSN, client_encoding="EUC_TW")

    def test_table_is_restored(self):
        self.assertEqual(psycopg2.extensions.encodings["SJIS"], "pgcodec-sjis")
        pgdrv.uninstall()
        self.assertEqual(psycopg2.extensions.encodings["SJIS"], "cp932")


if __name__ == "__main__":
    unittest.main()
