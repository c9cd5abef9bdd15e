"""asyncpg with pgcodec.drivers.asyncpg against a throwaway server.

asyncpg 0.27.0 keeps a non-UTF8 client_encoding and reads text with the
Python codec its own table names (misreads.ASYNCPG_NAMES, checked here
against a live connection), but its text codec is broken for every encoding
but UTF8 (values come back as (str, length) tuples, str parameters fail).
install() replaces the codecs of text, varchar and bpchar: for every client
encoding asyncpg can use, the characters its codec misreads then read
right; parameters are encoded by pgcodec; SET client_encoding is honoured.
What install() cannot change is asserted too: the SQL text goes as UTF-8.
"""

import asyncio
import unittest

import asyncpg
import pgcodec
import pgcodec.drivers.asyncpg as pgdrv

import misreads
import tempserver

DSN = ""


def setUpModule():
    global DSN
    DSN = tempserver.server_dsn()


def tearDownModule():
    tempserver.stop_shared()


def connect_args():
    # asyncpg takes a URI DSN only; tempserver's (or $PGCODEC_DSN's) is a
    # libpq key=value string, which psycopg's parser reads.
    from psycopg.conninfo import conninfo_to_dict
    params = conninfo_to_dict(DSN)
    args = {"host": params.get("host"), "user": params.get("user"),
            "database": params.get("dbname"), "password": params.get("password")}
    if params.get("port"):
        args["port"] = int(params["port"])
    return {k: v for k, v in args.items() if v is not None}


async def connect(enc, install):
    conn = await asyncpg.connect(**connect_args(), server_settings={"client_encoding": enc})
    if install:
        await pgdrv.install(conn)
    return conn


def held_query(enc, chars):
    # The encoding name and the bytes are written into the SQL (ASCII):
    # without pgcodec, asyncpg can send neither a text parameter nor, as its
    # type introspection then reads names, an array parameter in a non-UTF8
    # encoding.
    arr = ", ".join(f"'\\x{c.hex()}'::bytea" for c in chars)
    return (f"SELECT convert_from(b, '{enc}') AS t, convert_to(convert_from(b, '{enc}'), 'UTF8') AS u "
            f"FROM unnest(ARRAY[{arr}]) WITH ORDINALITY AS x(b, n) ORDER BY n")


async def fetch(conn, enc, chars):
    rows = await conn.fetch(held_query(enc, chars))
    return [r["t"] for r in rows], [bytes(r["u"]).decode("utf-8") for r in rows]


# A UTF8 database accepts every client encoding but MULE_INTERNAL.
CLIENT = [e for e in pgcodec.encodings() if e != "MULE_INTERNAL"]


def run(coro):
    return asyncio.run(coro)


class AsyncpgOwnCodecs(unittest.TestCase):
    def test_table_matches_asyncpg(self):
        async def main():
            for enc in CLIENT:
                expected = misreads.driver_codec("asyncpg", enc)
                with self.subTest(encoding=enc, expected=expected):
                    try:
                        conn = await connect(enc, install=False)
                    except LookupError:
                        self.assertIsNone(expected)  # EUC_TW: no Python codec
                        continue
                    try:
                        self.assertEqual(conn.get_settings().get_text_codec().name, expected)
                    finally:
                        await conn.close()
        run(main())

    def test_non_utf8_text_is_broken_without_pgcodec(self):
        async def main():
            conn = await connect("LATIN1", install=False)
            try:
                self.assertEqual(await conn.fetchval("SELECT 'abc'::text"), ("abc", 3))
                with self.assertRaises(asyncpg.DataError):
                    await conn.fetchval("SELECT $1::text", "abc")
            finally:
                await conn.close()
        run(main())


class SettingReader(unittest.TestCase):
    """install()'s decoder reads client_encoding at each value through
    _setting_reader: asyncpg's Cython __getattr__ called directly, or plain
    attribute access where that is not how the settings answer."""

    def test_reads_as_attribute_access_does(self):
        class ViaGetattr:  # asyncpg 0.27's shape
            def __init__(self):
                self.values = {"client_encoding": "SJIS"}

            def __getattr__(self, name):
                try:
                    return self.values[name]
                except KeyError:
                    raise AttributeError(name) from None

        class ViaProperty:
            client_encoding = property(lambda self: "BIG5")

        class Disagreeing(ViaProperty):
            def __getattr__(self, name):
                return "KOI8R"

        s = ViaGetattr()
        read = pgdrv._setting_reader(s)
        self.assertEqual(read("client_encoding"), "SJIS")
        s.values["client_encoding"] = "EUC_JP"  # follows a change
        self.assertEqual(read("client_encoding"), "EUC_JP")
        self.assertEqual(pgdrv._setting_reader(ViaProperty())("client_encoding"), "BIG5")
        self.assertEqual(pgdrv._setting_reader(Disagreeing())("client_encoding"), "BIG5")

    def test_asyncpg_settings_take_the_direct_route(self):
        async def main():
            conn = await connect("SJIS", install=False)
            try:
                settings = conn.get_settings()
                read = pgdrv._setting_reader(settings)
                self.assertEqual(read, settings.__getattr__)  # not the getattr fallback
                await conn.execute("SET client_encoding TO 'BIG5'")
                self.assertEqual(read("client_encoding"), "BIG5")
            finally:
                await conn.close()
        run(main())


class WithPgcodec(unittest.TestCase):
    def test_misread_characters_read_right(self):
        usable = [e for e in CLIENT if misreads.driver_codec("asyncpg", e) not in (None, "utf-8")]
        self.assertIn("SHIFT_JIS_2004", usable)

        async def main():
            with_misreads = []
            for enc in usable:
                py = misreads.driver_codec("asyncpg", enc)
                bad = misreads.sent_misreads(enc, py)
                chars = bad + misreads.sample_characters(enc)
                with self.subTest(encoding=enc, codec=py, misread=len(bad)):
                    conn = await connect(enc, install=True)
                    try:
                        got, held = await fetch(conn, enc, chars)
                        self.assertEqual(got, held)
                        # Parameters: pgcodec writes the bytes the server
                        # reads as the held text.
                        for c, text in list(zip(chars, held))[:: max(1, len(chars) // 20)]:
                            same = await conn.fetchval(
                                f"SELECT convert_from($1::bytea, '{enc}') = $2::text", c, text)
                            self.assertTrue(same, c.hex())
                    finally:
                        await conn.close()
                    conn = await connect(enc, install=False)
                    try:
                        default, _ = await fetch(conn, enc, bad or chars[:1])
                        # Tuples in any case (asyncpg 0.27.0); with misreads,
                        # the wrong text inside them too.
                        self.assertNotEqual(default, held[:len(default)])
                        if bad:
                            self.assertNotEqual([t[0] for t in default], held[:len(bad)])
                            with_misreads.append(enc)
                    except UnicodeError:
                        with_misreads.append(enc)  # rejected: wrong too
                    finally:
                        await conn.close()
            self.assertTrue({"SJIS", "SHIFT_JIS_2004", "EUC_JP", "UHC", "BIG5"} <= set(with_misreads),
                            with_misreads)
        run(main())

    def test_shift_jis_2004_read_as_euc_jis_2004(self):
        # asyncpg's table sends SHIFT_JIS_2004 to Python's euc_jis_2004.
        async def main():
            chars = [pgcodec.lookup("SHIFT_JIS_2004").encode(t) for t in ("\u3042", "\u6f22")]
            conn = await connect("SHIFT_JIS_2004", install=True)
            try:
                got, held = await fetch(conn, "SHIFT_JIS_2004", chars)
                self.assertEqual(got, ["\u3042", "\u6f22"])
                self.assertEqual(got, held)
            finally:
                await conn.close()
        run(main())

    def test_parameters_and_errors(self):
        async def main():
            conn = await connect("SJIS", install=True)
            try:
                self.assertEqual(await conn.fetchval("SELECT $1::text = chr(9312)", "\u2460"), True)
                self.assertEqual(await conn.fetchval("SELECT $1::varchar", "\u2460"), "\u2460")
                with self.assertRaises(asyncpg.DataError) as ctx:
                    await conn.fetchval("SELECT $1::text", "x\u00e9")
                err = ctx.exception.__cause__
                self.assertIsInstance(err, pgcodec.EncodeError)
                self.assertEqual(err.sqlstate, "22P05")
                with self.assertRaises(asyncpg.UntranslatableCharacterError) as srv:
                    await conn.fetchval("SELECT convert_to(chr(233), 'SJIS')")
                self.assertEqual(srv.exception.sqlstate, err.sqlstate)
                self.assertEqual(srv.exception.message, err.message)
            finally:
                await conn.close()
        run(main())

    def test_set_client_encoding_is_honoured(self):
        async def main():
            conn = await connect("SJIS", install=True)
            try:
                for enc in ("SJIS", "EUC_JP", "UTF8", "BIG5", "SJIS"):
                    await conn.execute(f"SET client_encoding TO '{enc}'")
                    self.assertEqual(conn.get_settings().client_encoding, enc)
                    self.assertEqual(await conn.fetchval("SELECT chr(12354) || $1::text", "\u4e2d"),
                                     "\u3042\u4e2d")
            finally:
                await conn.close()
        run(main())

    def test_utf8_keeps_asyncpgs_own_codecs(self):
        # install() on a UTF8 connection leaves asyncpg's text codecs (its
        # C UTF-8 decoder). Switched to SJIS without a new install(), the
        # value is asyncpg's own reading of 87 40 (Python's shift_jis has no
        # circled digit one: an error, or asyncpg 0.27's (str, length)
        # tuple), not the text; install() then reads it. And an install()
        # on UTF8 undoes one made on another encoding.
        step = iter(range(100))

        async def reads(conn):
            # A new statement each time: asyncpg's statement cache would
            # keep what it found when it first prepared the query.
            try:
                return await conn.fetchval(f"SELECT chr(9312) /* {next(step)} */")  # U+2460, SJIS 87 40
            except Exception as e:  # what asyncpg's own codec raises
                return type(e).__name__

        async def main():
            conn = await connect("UTF8", install=True)
            try:
                self.assertEqual(await reads(conn), "\u2460")
                await conn.execute("SET client_encoding TO 'SJIS'")
                self.assertNotEqual(await reads(conn), "\u2460")
                await pgdrv.install(conn)
                self.assertEqual(await reads(conn), "\u2460")
                await conn.execute("SET client_encoding TO 'UTF8'")
                await pgdrv.install(conn)
                self.assertEqual(await reads(conn), "\u2460")
                await conn.execute("SET client_encoding TO 'SJIS'")
                self.assertNotEqual(await reads(conn), "\u2460")
            finally:
                await conn.close()
        run(main())

    def test_sql_text_is_sent_as_utf8(self):
        # A limitation pgcodec cannot lift: asyncpg encodes the query text
        # as UTF-8 whatever the client encoding, so a LATIN1 server reads
        # the two bytes of U+00E9 as two characters.
        async def main():
            conn = await connect("LATIN1", install=True)
            try:
                self.assertEqual(await conn.fetchval("SELECT '\u00e9'::text"), "\u00c3\u00a9")
                self.assertEqual(await conn.fetchval("SELECT $1::text", "\u00e9"), "\u00e9")
            finally:
                await conn.close()
        run(main())


if __name__ == "__main__":
    unittest.main()
