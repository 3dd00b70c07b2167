"""``ginrummy bench NAME``: speed, load, abuse and fault benchmarks (bench/RESULTS.md)."""
