"""The round trips through `queries/`: the sync (commands and accepted proposals into one pull
request), a proposal posted, and a pull request's memory read and written."""
