"""Study hdp_pcvb0: Sato, Kurihara & Nakagawa (KDD 2012), practical CVB0 for HDP-LDA (seed 001)."""
