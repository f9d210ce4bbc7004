"""latentlab: reproducible replication of variational and collapsed inference for topic models.

Subpackages
-----------
data        datasets: registry, checksummed fetch, parsers, canonical types, splits, synthetic
models      one subpackage per model family; plain-numpy math beside numba kernels
evaluation  held-out likelihood, AIS family, classification and ranking metrics
studies     experiment drivers, one module per study (the Snakemake rules call them)
claims      the replication ledger: paper values next to ours, with a verdict
plotting    shared figure style
"""

__version__ = "0.1.0"
