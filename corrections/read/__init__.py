"""The read: its options, the round trips through `queries/`, and the frozen outcome they produce."""
