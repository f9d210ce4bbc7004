"""latentlab.evaluation."""
