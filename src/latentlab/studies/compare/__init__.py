"""``compare``: the replicated methods side by side on one corpus (a user's own, via
``data.local``, or any prepared dataset). See ``study.py`` for the settings and
``methods.py`` for the thin adapter over the models."""
