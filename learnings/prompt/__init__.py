"""The blocks the model reads: the learnings block (`learnings.md`) and a pull request's memory
(pure: learnings and a snapshot in, text out; the templates are the package's own files)."""
