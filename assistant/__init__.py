"""The pure core shared by `corrections` and `learnings`: nothing here reaches the network."""
