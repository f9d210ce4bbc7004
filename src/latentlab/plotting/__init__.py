"""latentlab.plotting."""
