"""Study ``nonconjugate_vi``: Wang & Blei (JMLR 2013), Laplace and delta-method VI (seed 002)."""

DOCUMENT = "Wang & Blei (JMLR 2013), Variational inference in nonconjugate models (seed 002)"
