"""misreads.py agrees with the divergence registry: for every encoding and
every driver's default Python codec, the characters it counts as misread are
exactly the registry's decode rows of categories different-mapping and
only-postgres (corpus/divergences/<ENC>.python-<codec>.tsv, ranges expanded).
No server needed."""

import unittest

import misreads
import pgcodec


class MisreadsAgreeWithRegistry(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.codecs = {}  # (encoding, python codec) -> Count with every misread kept
        for enc in pgcodec.encodings():
            for driver in misreads.DRIVERS:
                py = misreads.driver_codec(driver, enc)
                if py is not None and (enc, py) not in cls.codecs:
                    cls.codecs[(enc, py)] = misreads.count(enc, py, keep=-1)

    def test_every_count_is_the_registry_count(self):
        for (enc, py), c in sorted(self.codecs.items()):
            with self.subTest(encoding=enc, codec=py):
                registered = misreads.registry_inputs(enc, py)
                self.assertIsNotNone(registered, f"no corpus/divergences/{enc}.python-{py}.tsv")
                found = {b for b, _ in c.examples}
                self.assertEqual(c.misread, len(found))
                self.assertEqual(sorted(found - registered), [], "misread, not in the registry")
                self.assertEqual(sorted(registered - found), [], "in the registry, not misread")

    def test_known_figures(self):
        # The characters PostgreSQL reads: all of Unicode but U+0000 for UTF8
        # and GB18030; the example, SJIS through shift_jis.
        self.assertEqual(self.codecs[("UTF8", "utf-8")].total, 1112063)
        self.assertEqual(self.codecs[("GB18030", "gb18030")].total, 1112063)
        self.assertEqual(self.codecs[("SJIS", "shift_jis")].misread, 851)
        sjis = self.codecs[("SJIS", "shift_jis")]
        self.assertEqual((sjis.sent_misread, sjis.sent), (453, 7516))
        self.assertEqual(self.codecs[("SJIS", "cp932")].misread, 0)
        self.assertEqual(self.codecs[("SHIFT_JIS_2004", "euc_jis_2004")].misread, 11296)

    def test_drivers_tables(self):
        self.assertEqual(misreads.driver_codec("psycopg", "SJIS"), "shift_jis")
        self.assertEqual(misreads.driver_codec("psycopg2", "SJIS"), "cp932")
        self.assertEqual(misreads.driver_codec("asyncpg", "SHIFT_JIS_2004"), "euc_jis_2004")
        for driver in misreads.DRIVERS:
            self.assertIsNone(misreads.driver_codec(driver, "EUC_TW"))
            self.assertIsNone(misreads.driver_codec(driver, "MULE_INTERNAL"))

    def test_table_lists_all_encodings(self):
        text = misreads.table(dict(self.codecs))
        for enc in pgcodec.encodings():
            self.assertIn(f"| {enc} |", text)
        self.assertIn("unsupported", text)


if __name__ == "__main__":
    unittest.main()
