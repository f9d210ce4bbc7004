"""Correlated topic model (Wang & Blei 2013 Sec. 4.1; Blei & Lafferty 2007 baseline)."""
