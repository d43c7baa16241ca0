"""What both command lines (`corrections`, `learnings`) share: the token, the repository, the
git checkout, and how warnings reach the person or the runner. No network here: `--help` and
argument parsing import only this package.
"""
