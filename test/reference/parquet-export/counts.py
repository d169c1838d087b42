"""Per-cell counts of a samegame Parquet export, read by pyarrow (an independent Parquet reader).

Usage: python3 counts.py DIR > counts.json
DIR is `samegame export STORE --format parquet --out DIR` of the fixture store (fixture-store.ts).
Per (model, game, framing): trials, valid trials (status ok) and cooperations (action C).
"""
import json
import sys

import pyarrow.dataset as ds

table = ds.dataset(sys.argv[1], format="parquet", partitioning="hive").to_table()
rows = table.to_pylist()
cells = {}
for r in rows:
    key = (str(r["model"]), str(r["game"]), str(r["framing"]))
    c = cells.setdefault(key, {"trials": 0, "valid": 0, "cooperations": 0})
    c["trials"] += 1
    c["valid"] += 1 if r["status"] == "ok" else 0
    c["cooperations"] += 1 if r["action"] == "C" else 0
out = {
    "reader": "pyarrow " + __import__("pyarrow").__version__,
    "columns": sorted(table.column_names),
    "cells": [{"model": k[0], "game": k[1], "framing": k[2], **v} for k, v in sorted(cells.items())],
}
json.dump(out, sys.stdout, indent=2)
sys.stdout.write("\n")
