"""`python -m corrections`: the same as the `corrections` console script."""

from corrections.commands.cli import main

raise SystemExit(main())
