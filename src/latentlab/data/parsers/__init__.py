"""latentlab.data.parsers."""
