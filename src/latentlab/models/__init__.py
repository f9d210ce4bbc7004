"""latentlab.models."""
