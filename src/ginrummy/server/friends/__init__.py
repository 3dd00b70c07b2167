"""Friends (issue 22, part 2; docs/accounts.md, "Friends"): follows and friendships,
privacy switches, challenges to a match, and where friends are."""
