"""latentlab.evaluation."""

# Held-out evaluation of topic models (document completion, perplexity): ``heldout``.
