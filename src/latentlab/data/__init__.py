"""Datasets: registry, checksummed fetch, parsers, canonical on-disk types, splits, synthetic."""
