"""What counts as a correction: the models the rules read, and each rule (pure)."""
