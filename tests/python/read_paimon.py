"""Reads a Paimon table with pypaimon (Apache Paimon's Python reader: no Flink, no JVM, no
tierproof code) and prints its rows as JSON: {"columns": [...], "rows": [[id, bal], ...]}, sorted.

    python3 tests/python/read_paimon.py WAREHOUSE DATABASE.TABLE

Used by the Java tests to check that a table tierproof leaves behind holds exactly the rows the
workload wrote, as another reader sees them.
"""

import json
import sys

from pypaimon import CatalogFactory


def read(warehouse: str, table: str) -> dict:
    catalog = CatalogFactory.create({"warehouse": warehouse})
    t = catalog.get_table(table)
    builder = t.new_read_builder()
    splits = builder.new_scan().plan().splits()
    arrow = builder.new_read().to_arrow(splits)
    columns = arrow.column_names
    rows = [[r["id"], r["bal"]] for r in arrow.select(["id", "bal"]).to_pylist()]
    rows.sort(key=lambda r: (r[0], r[1] is not None, r[1] or 0))
    return {"columns": columns, "rows": rows}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: read_paimon.py WAREHOUSE DATABASE.TABLE")
    print(json.dumps(read(sys.argv[1], sys.argv[2])))
