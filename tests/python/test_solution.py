"""solution.py against the Rust core through the C ABI."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from solution import tier_table_ddl, upsert_inserts  # noqa: E402

EXPECTED_DDL = (
    "CREATE TABLE `accounts` (\n"
    "  `id` INT,\n"
    "  `bal` INT,\n"
    "  PRIMARY KEY (`id`) NOT ENFORCED\n"
    ") WITH (\n"
    "  'bucket' = '1',\n"
    "  'merge-engine' = 'deduplicate',\n"
    "  'changelog-producer' = 'input'\n"
    ")"
)


def test_ddl_is_the_tiered_table():
    assert tier_table_ddl("accounts") == EXPECTED_DDL


def test_ddl_quotes_hostile_names():
    ddl = tier_table_ddl("t`; DROP TABLE x; --")
    assert ddl.startswith("CREATE TABLE `t``; DROP TABLE x; --` (")
    assert tier_table_ddl("db.`a.b`").startswith("CREATE TABLE `db`.`a.b` (")


def test_upserts_in_order_with_null_and_extremes():
    assert upsert_inserts("t", [(1, 10), (1, None), (-2147483648, 2147483647)]) == [
        "INSERT INTO `t` VALUES (1, 10)",
        "INSERT INTO `t` VALUES (1, CAST(NULL AS INT))",
        "INSERT INTO `t` VALUES (-2147483648, 2147483647)",
    ]
    assert upsert_inserts("t", []) == []
    assert upsert_inserts("t", iter([(5, 5)])) == ["INSERT INTO `t` VALUES (5, 5)"]


@pytest.mark.parametrize(
    "upserts, message",
    [
        ([(1, 2**31)], "upsert #1 bal 2147483648 is outside INT"),
        ([(1, 1), (-(2**31) - 1, 0)], "upsert #2 id -2147483649 is outside INT"),
        ([(1, 10**30)], "upsert #1 bal 1000000000000000000000000000000 is outside INT"),
        ([(1, "5")], "upsert #1 bal must be an int, not str"),
        ([(True, 1)], "upsert #1 id must be an int, not bool"),
        ([(1, 2.5)], "upsert #1 bal must be an int, not float"),
        ([(1,)], "upsert #1 must be an (id, bal) pair"),
    ],
)
def test_bad_values_are_refused_by_name(upserts, message):
    with pytest.raises(ValueError) as e:
        upsert_inserts("t", upserts)
    assert message in str(e.value)


@pytest.mark.parametrize("name, message", [("", "is empty"), ("x" * 256, "256 bytes"), ("a\nb", "U+000A"),
                                           ("a.b.c.d", "at most three parts"), ("a\0b", "NUL")])
def test_bad_names_are_refused_by_name(name, message):
    with pytest.raises(ValueError) as e:
        tier_table_ddl(name)
    assert message in str(e.value)
    with pytest.raises(ValueError):
        upsert_inserts(name, [(1, 1)])


def test_non_string_table_is_refused():
    with pytest.raises(ValueError, match="table must be a str"):
        tier_table_ddl(None)


@pytest.mark.parametrize(
    "name, reason",
    [
        ("/tmp/x", "'/' is not allowed"),
        ("sub/dir", "'/' is not allowed"),
        ("a\\b", "is not allowed"),
        ("file:x", "':' is not allowed"),
        ("a%2F..%2Fb", "'%' is not allowed"),
        ("t$snapshots", "'$' is not allowed"),
        ("a?b", "'?' is not allowed"),
        ("a#b", "'#' is not allowed"),
        ("`..`", "may not start with '.'"),
        ("`.hidden`", "may not start with '.'"),
        ("`a..b`", "'..' is not allowed"),
    ],
)
def test_names_that_would_leave_the_warehouse_are_refused(name, reason):
    """One case per class of character that a filesystem catalog would turn into another path."""
    with pytest.raises(ValueError) as e:
        tier_table_ddl(name)
    assert reason in str(e.value)
    with pytest.raises(ValueError):
        upsert_inserts(name, [(1, 1)])
