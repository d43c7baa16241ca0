"""What a maintainer reads about the assistant: the monthly numbers, repeats, `explain N`, the
context as of a moment and the backtest (pure: the backtest's model and caches are corrections/commands/
backtest_model.py's and backtest_cache.py's)."""
