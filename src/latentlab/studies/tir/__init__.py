"""Study ``tir``: topical influence regression on citation networks (Foulds 2014, ch. 3)."""
