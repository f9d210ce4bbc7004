"""latentlab.claims."""
