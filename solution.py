"""The exercise's Python face of tierproof, backed by the same Rust core as the Java harness.

    tier_table_ddl(table) -> str
        Flink SQL CREATE TABLE for the tiered (id INT, bal INT) primary-key table:
        PRIMARY KEY (id) NOT ENFORCED, 'bucket'='1', 'merge-engine'='deduplicate',
        'changelog-producer'='input'.

    upsert_inserts(table, upserts) -> list[str]
        One INSERT per (id, bal) upsert, in the given order (later writes for an id supersede
        earlier ones); bal may be None (SQL NULL).

Bad input raises ValueError with the core's message (the offending name or value is named).
The library is target/release/libtierproof.so; it is built with `cargo build --release --lib`
when missing (or set TIERPROOF_LIB to a built copy).
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterable, List, Optional, Sequence, Tuple

__all__ = ["tier_table_ddl", "upsert_inserts", "TierproofError"]

_ROOT = Path(__file__).resolve().parent
_BUILD_COMMAND = ["cargo", "build", "--release", "--lib", "--quiet"]
_STATUS_OK, _STATUS_BAD_INPUT = 0, 1


class TierproofError(RuntimeError):
    """A failure inside the native core that is not the caller's bad input."""


def _library_path() -> Path:
    if os.environ.get("TIERPROOF_LIB"):
        return Path(os.environ["TIERPROOF_LIB"])
    name = {"darwin": "libtierproof.dylib", "win32": "tierproof.dll"}.get(sys.platform, "libtierproof.so")
    return _ROOT / "target" / "release" / name


def _load() -> ctypes.CDLL:
    path = _library_path()
    if not path.exists():
        try:
            subprocess.run(_BUILD_COMMAND, cwd=_ROOT, check=True)
        except (OSError, subprocess.CalledProcessError) as e:
            raise TierproofError(
                f"the tierproof library {path} is missing and building it failed ({e}); "
                f"run `{' '.join(_BUILD_COMMAND[:-1])}` in {_ROOT}"
            ) from e
    lib = ctypes.CDLL(str(path))
    out = ctypes.POINTER(ctypes.c_void_p)
    lib.tierproof_tier_table_ddl.argtypes = [ctypes.c_char_p, out]
    lib.tierproof_upsert_inserts.argtypes = [ctypes.c_char_p, ctypes.c_char_p, out]
    for f in (lib.tierproof_tier_table_ddl, lib.tierproof_upsert_inserts):
        f.restype = ctypes.c_int
    lib.tierproof_free.argtypes = [ctypes.c_void_p]
    lib.tierproof_free.restype = None
    return lib


_lib: Optional[ctypes.CDLL] = None


def _call(fn_name: str, *args: bytes) -> str:
    global _lib
    if _lib is None:
        _lib = _load()
    result = ctypes.c_void_p()
    status = getattr(_lib, fn_name)(*args, ctypes.byref(result))
    try:
        text = ctypes.string_at(result.value).decode("utf-8") if result.value else ""
    finally:
        _lib.tierproof_free(result)
    if status == _STATUS_OK:
        return text
    if status == _STATUS_BAD_INPUT:
        raise ValueError(text)
    raise TierproofError(text)


def _encode_name(table: object) -> bytes:
    if not isinstance(table, str):
        raise ValueError(f"table must be a str, not {type(table).__name__}: {table!r}")
    if "\0" in table:
        raise ValueError(f"invalid name {table!r}: NUL is not allowed")
    return table.encode("utf-8")


def _int_text(what: str, value: object) -> str:
    # bool is an int in Python, but True is no balance.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an int, not {type(value).__name__}: {value!r}")
    return str(value)  # the range check and its message are the core's


def tier_table_ddl(table: str) -> str:
    """The Flink SQL DDL of the tiered (id INT, bal INT) table named `table`."""
    return _call("tierproof_tier_table_ddl", _encode_name(table))


def upsert_inserts(table: str, upserts: Iterable[Sequence[Optional[int]]]) -> List[str]:
    """One INSERT statement per (id, bal) upsert, in order; bal may be None."""
    pairs: List[Tuple[str, Optional[str]]] = []
    for n, upsert in enumerate(upserts, start=1):
        try:
            id_, bal = upsert
        except (TypeError, ValueError):
            raise ValueError(f"upsert #{n} must be an (id, bal) pair, not {upsert!r}") from None
        pairs.append((_int_text(f"upsert #{n} id", id_), None if bal is None else _int_text(f"upsert #{n} bal", bal)))
    return json.loads(_call("tierproof_upsert_inserts", _encode_name(table), json.dumps(pairs).encode("utf-8")))


if __name__ == "__main__":
    print(tier_table_ddl("accounts"))
    for statement in upsert_inserts("accounts", [(1, 100), (2, 200), (1, 150), (2, None)]):
        print(statement)
