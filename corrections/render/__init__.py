"""The files the model reads, rendered from a read's outcome: the context folder, the prompt, the checked answer (pure)."""
