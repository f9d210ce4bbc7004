"""The replication ledger (see :mod:`latentlab.claims.ledger`)."""

from latentlab.claims.ledger import COLUMNS, Ledger, judge, read_claims

__all__ = ["COLUMNS", "Ledger", "judge", "read_claims"]
