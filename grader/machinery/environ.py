"""The grader's environment, copied once at import (in the main thread).

pytest rewrites os.environ (PYTEST_CURRENT_TEST) before and after every check, while scenario
threads start processes and make HTTP calls: iterating os.environ from a thread then fails with
"dictionary changed size during iteration" or a KeyError. Threads use this copy instead, and
our HTTP sessions never read proxy settings from the environment (every server is local).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import requests

_AT_START = dict(os.environ)


def environment(**extra: str) -> dict[str, str]:
    """A fresh copy of the grader's environment at start, with ``extra`` on top."""
    return {**_AT_START, **extra}


# What a script inherits of the grader's environment: how to find programs and speak the
# language, nothing else (the grader's may hold a broker's credentials, a CI token ...).
SCRIPT_KEEPS = ("PATH", "LANG", "LANGUAGE", "TZ", "TERM")


def script_environment(**contract: str) -> dict[str, str]:
    """A script's environment: ``SCRIPT_KEEPS`` of the grader's, and the lab's ``contract``."""
    kept = {k: v for k, v in _AT_START.items() if k in SCRIPT_KEEPS or k.startswith("LC_")}
    kept.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    return {**kept, **contract}


def http_session() -> requests.Session:
    """A requests session that ignores *_proxy variables and .netrc (local servers only)."""
    import requests  # here: a queue-only run never loads it

    session = requests.Session()
    session.trust_env = False
    return session
