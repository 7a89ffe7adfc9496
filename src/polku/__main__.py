"""``python -m polku``: the same as the ``polku`` command."""

from polku.cli import main

raise SystemExit(main())
