"""What a broker URL gives away where others may read it (no network library needed)."""

from __future__ import annotations

import re
import urllib.parse

# scheme://user:password@ in any text (an error message that quotes a broker URL, say)
USERINFO = re.compile(r"(?P<head>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s]*):(?P<password>[^@/\s]*)@")


def password_as_written(*urls: str | None) -> set[str]:
    """How the password of each URL reads on a command line (":PASSWORD@", as written and
    unquoted); none for guest's, which every user of the machine knows anyway."""
    forms = set()
    for url in urls:
        password = urllib.parse.urlsplit(url).password if url else None
        if password and urllib.parse.unquote(password) != "guest":
            forms |= {f":{password}@", f":{urllib.parse.unquote(password)}@"}
    return forms


def without_passwords(text: str) -> str:
    """``text`` with the password of every URL in it written as ***, but guest's (which every
    user of the machine knows): what the grader shows a student may quote an error that quotes
    a broker URL (red team 20: the class node's administrator password in results.json)."""

    def masked(found: re.Match[str]) -> str:
        if urllib.parse.unquote(found["password"]) == "guest":
            return found[0]
        return f"{found['head']}:***@"

    return USERINFO.sub(masked, text)
