"""`python -m corrections`: the same as the `corrections` console script."""

from corrections.cli import main

raise SystemExit(main())
