"""Study ``drift``: DRIFT and LFRM on synthetic and Enron networks (Foulds 2014, ch. 2)."""
