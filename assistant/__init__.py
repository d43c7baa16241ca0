"""The shared pure core of both sides: who the assistant is and who counts (`identity`), and how
its hidden markers are found and written (`markers`). No I/O; learnings/ and corrections/ import it,
it imports neither.
"""
