"""pgcodec for the Python PostgreSQL drivers.

One module per driver, imported on demand so that using one driver does not
require the others:

    import pgcodec.drivers.psycopg     # psycopg 3: install(context)
    import pgcodec.drivers.psycopg2    # psycopg2: install(scope=None)
    import pgcodec.drivers.asyncpg     # asyncpg: await install(connection)

Each decodes what the server sends and encodes what it is sent with the
pgcodec Codec of the connection's client_encoding, so a value reads as the
text PostgreSQL holds, not as the driver's nearest Python codec reads it.
docs/python.md (section "Drivers") says what each can and cannot cover.
"""

__all__ = ["UnsupportedEncoding"]


class UnsupportedEncoding(LookupError):
    """The connection's client_encoding has no pgcodec codec (it is not one of
    PostgreSQL's 42 encodings), so pgcodec cannot stand in for the driver."""


def codec_for_parameter(value, driver: str):
    """The pgcodec Codec for a client_encoding parameter value (str or bytes),
    UnsupportedEncoding naming the value and the driver when there is none."""
    import pgcodec

    name = value.decode("ascii", "replace") if isinstance(value, (bytes, bytearray)) else str(value)
    try:
        return pgcodec.lookup(name)
    except LookupError:
        raise UnsupportedEncoding(
            f"{driver}: client_encoding {name!r} is not a PostgreSQL encoding pgcodec knows; "
            f"pgcodec cannot decode this connection's text") from None
