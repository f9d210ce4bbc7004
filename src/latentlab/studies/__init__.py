"""latentlab.studies."""
