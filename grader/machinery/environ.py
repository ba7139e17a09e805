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


def http_session() -> requests.Session:
    """A requests session that ignores *_proxy variables and .netrc (local servers only)."""
    import requests  # here: a queue-only run never loads it

    session = requests.Session()
    session.trust_env = False
    return session
