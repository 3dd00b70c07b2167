"""``python -m ginrummy``: the ``ginrummy`` command line (``ginrummy.cli``)."""

from ginrummy.cli import main

raise SystemExit(main())
