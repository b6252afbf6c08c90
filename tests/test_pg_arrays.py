"""The typed array parameters the hot statements pass (``pg.TextArray`` and
friends) reach PostgreSQL as the arrays a plain list would be, element for
element, on a real server. (They are lists: a connection whose adapters do
not know them dumps them as psycopg dumps any list.)"""

from __future__ import annotations

import psycopg
import pytest

from langgraph_trustmem.pg import BytesArray, FloatArray, IntArray, TextArray

CASES = [
    (TextArray(["messages", "é€ 🩺", "", "a\x01b"]), "text[]"),
    (TextArray(), "text[]"),
    (BytesArray([b"\x00\x01\xff", b"", None, bytes(range(256)) * 40]), "bytea[]"),
    (BytesArray(), "bytea[]"),
    (IntArray([0, -5, 2**31 - 1, -(2**31)]), "integer[]"),
    (IntArray(), "integer[]"),
    (FloatArray([0.0, -1.5, 1e300, 0.1]), "double precision[]"),
    (FloatArray(), "double precision[]"),
]


@pytest.mark.parametrize("value,typ", CASES, ids=[f"{t}-{len(v)}" for v, t in CASES])
def test_a_typed_array_arrives_as_the_list_it_is(pg_url, value, typ):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        got, got_type, n = conn.execute(
            "SELECT %s, pg_typeof(%s)::text, cardinality(%s)", (value, value, value)
        ).fetchone()
        assert got_type == typ
        assert n == len(value)
        assert got == list(value)
        # the same value, sent as a plain list, compares equal on the server
        if value:
            (same,) = conn.execute(f"SELECT %s::{typ} = %s", (value, list(value))).fetchone()
            assert same is True


def test_unnest_of_typed_arrays_pairs_their_elements(pg_url):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT * FROM unnest(%(c)s::text[], %(b)b::bytea[], %(i)s::int[], %(f)s::float8[])",
            {
                "c": TextArray(["x", "y"]),
                "b": BytesArray([b"1", b"2"]),
                "i": IntArray([3, 4]),
                "f": FloatArray([0.5, 0.25]),
            },
        ).fetchall()
    assert rows == [("x", b"1", 3, 0.5), ("y", b"2", 4, 0.25)]
