"""``python -m cli``: the same as the ``mastermind`` command."""

from cli.main import main

raise SystemExit(main())
