"""Correlated topic model (Wang & Blei 2013 Sec. 4.1; Blei & Lafferty 2007 baseline).

:class:`CTM` is the model behind the one interface (``fit``, ``phi``, ``theta``); the
variational EM and per-document inference it wraps live in :mod:`.vi`.
"""

from .model import CTM

__all__ = ["CTM"]
