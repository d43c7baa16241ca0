"""What a learning is and the rules on it: the model, globs, the commands and proposals a comment
holds, ranking and staleness (pure)."""
