"""The shared pure core of both sides (corrections and learnings): who the assistant is, who counts,
and how its hidden markers are found. No I/O, no GitHub client: imported by `queries/`-free code
and by everything above it.
"""
