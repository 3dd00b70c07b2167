"""Civility (docs/accounts.md, "Civility"): reports, blocks, chat mutes and timeouts,
the play-ban ladder (``ladder``), and the operators' console (``console``)."""
