"""pgcodec.drivers._arrays: text-format array literals as a str, and the
encodings whose characters can hide array syntax in a trail byte. No server,
no driver needed."""

import unittest

import pgcodec
from pgcodec.drivers._arrays import ASCII_SYNTAX_TRAIL_ENCODINGS, build_text_array, parse_text_array

import misreads

SYNTAX = frozenset(b'{}",\\ \t\n\r\v\f')


class Malformed(Exception):
    pass


def hides_syntax(enc: str) -> bool:
    """Whether some character PostgreSQL reads in `enc` has an array syntax
    byte after its first (every well-formed character, misreads.candidate_groups)."""
    codec = pgcodec.lookup(enc)
    for length, group in misreads.candidate_groups(codec):
        if length < 2:
            continue
        for c in group:
            if SYNTAX.isdisjoint(c[1:]):
                continue
            try:
                if len(codec.decode(c)) == 1:
                    return True
            except pgcodec.DecodeError:
                pass
    return False


class Literals(unittest.TestCase):
    def test_the_hazard_set_is_the_encodings_with_syntax_trail_bytes(self):
        found = {e for e in pgcodec.encodings() if hides_syntax(e)}
        self.assertEqual(found, set(ASCII_SYNTAX_TRAIL_ENCODINGS))

    def test_build_then_parse_is_the_value(self):
        values = [
            [], ["a"], [None], [""], ["NULL"], ["null"], ["NuLl"], ['"'], ["\\"], ["{x}"], ["p,q"], ["a b"],
            ["\t", "\n", "\r", "\v", "\f"], ["\u8868", "\u8868\\", "\\\u8868"], [["a", None], ["\\", '"']],
            [[["x"]]], ["é", "😀", "\u3000"],
        ]
        for v in values:
            with self.subTest(value=v):
                literal = build_text_array(v, ",", Malformed)
                self.assertEqual(parse_text_array(literal, str, Malformed), v)

    def test_build_quotes_as_array_in_needs(self):
        self.assertEqual(build_text_array(["a", "", "NULL", None, "x y", 'q"', "b\\"], ",", Malformed),
                         '{a,"","NULL",NULL,"x y","q\\"","b\\\\"}')
        # With another delimiter, that one is quoted too (a comma still is).
        self.assertEqual(build_text_array(["a;b", "c"], ";", Malformed), '{"a;b";c}')

    def test_build_gives_up_on_other_types_and_refuses_nul(self):
        self.assertIsNone(build_text_array(["a", 1], ",", Malformed))
        self.assertIsNone(build_text_array([["a"], [b"b"]], ",", Malformed))
        with self.assertRaises(Malformed):
            build_text_array(["a\x00b"], ",", Malformed)

    def test_parse_reads_what_the_server_writes(self):
        self.assertEqual(parse_text_array('[0:1]={x,y}', str, Malformed), ["x", "y"])
        self.assertEqual(parse_text_array('{"a,b",NULL,"NULL","",c d}', str, Malformed),
                         ["a,b", None, "NULL", "", "c d"])
        self.assertEqual(parse_text_array('{{"\\\\",a},{b,"\\""}}', str, Malformed), [["\\", "a"], ["b", '"']])
        self.assertEqual(parse_text_array("{}", str, Malformed), [])
        self.assertEqual(parse_text_array("{x}", str.upper, Malformed), ["X"])

    def test_parse_refuses_malformed_literals(self):
        for bad in ("", "x", "[0:1]{x}", "}", "x{}"):
            with self.subTest(literal=bad), self.assertRaises(Malformed):
                parse_text_array(bad, str, Malformed)


if __name__ == "__main__":
    unittest.main()
