"""A seeded per-decision log for bench/logs-engine.ts (generated with DuckDB, written as CSV or Parquet).

8 models, two framings (base, alt), matches of 10 rounds, two seats a match (one row per seat and round),
2 % invalid moves ("none"), labels stag (C) / hare (D) as bench/decisions.yaml reads them.
Usage: python3 bench/generate_decisions.py DECISIONS OUT.csv|OUT.parquet
"""
import sys

import duckdb

n, out = int(sys.argv[1]), sys.argv[2]
fmt = "(FORMAT parquet)" if out.endswith(".parquet") else "(FORMAT csv, HEADER true)"
con = duckdb.connect()
con.execute("SELECT setseed(0.46)")
con.execute(f"""
COPY (
  WITH m AS (
    SELECT i AS k, 'm' || (1 + (i % 8))::VARCHAR AS a, 'm' || (1 + ((i * 7 + 1 + (i // 8)) % 8))::VARCHAR AS b0,
      CASE WHEN (i // 64) % 2 = 0 THEN 'base' ELSE 'alt' END AS w
    FROM range(0, {n // 20}) t(i)
  ), mm AS (SELECT k, a, CASE WHEN b0 = a THEN 'm' || (1 + ((k + 3) % 8))::VARCHAR ELSE b0 END AS b, w FROM m),
  rows AS (SELECT k, a, b, w, r, s FROM mm, range(1, 11) rr(r), range(1, 3) ss(s))
  SELECT 'g' || k::VARCHAR AS id, CASE WHEN s = 1 THEN a ELSE b END AS player, CASE WHEN s = 1 THEN b ELSE a END AS against, r AS round, s AS seat,
    CASE WHEN random() < 0.02 THEN 'none'
      WHEN random() < 0.35 + 0.05 * (hash(a) % 7) / 7.0 + CASE WHEN w = 'alt' THEN 0.1 ELSE 0 END THEN 'stag' ELSE 'hare' END AS move,
    w AS world
  FROM rows ORDER BY k, r, s
) TO '{out}' {fmt}
""")
