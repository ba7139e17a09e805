"""What a broker URL gives away where others may read it (no network library needed)."""

from __future__ import annotations

import urllib.parse


def password_as_written(*urls: str | None) -> set[str]:
    """How the password of each URL reads on a command line (":PASSWORD@", as written and
    unquoted); none for guest's, which every user of the machine knows anyway."""
    forms = set()
    for url in urls:
        password = urllib.parse.urlsplit(url).password if url else None
        if password and urllib.parse.unquote(password) != "guest":
            forms |= {f":{password}@", f":{urllib.parse.unquote(password)}@"}
    return forms
