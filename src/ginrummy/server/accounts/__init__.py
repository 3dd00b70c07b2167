"""Accounts without passwords: names, passkeys, devices and one-time codes
(docs/accounts.md)."""
