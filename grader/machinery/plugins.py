"""The RabbitMQ plugins a private node is shown: the ones it enables and what they need.

A node boots slower the more plugin applications it can see, enabled or not (measured; the
likely cause is that every module it loads is looked for along a longer code path: half of a
boot's CPU time here is system time). Debian's rabbitmq-server 3.10.8 installs 71; a
private node started by mq-up.sh needs 26 of them (rabbit and the management plugin, with their
dependencies). Shown only those, through a directory of links given as RABBITMQ_PLUGINS_DIR,
it booted in 7.8-8.9 s instead of 9.9-10.9 s here (2 cores, 3 boots each way), and used about
2 CPU-seconds less. The node is the same: the same server, configuration and enabled plugins.

The dependencies are read from each application's .app file, the way RabbitMQ itself resolves
them. Anything unusual (plugins packed as .ez archives, no installed plugin directory, an
application that cannot be found) leaves the node to see every installed plugin, as before.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Iterable
from pathlib import Path

INSTALLED = ("/usr/lib/rabbitmq/lib/rabbitmq_server-*/plugins",)  # Debian's layout
ALWAYS = ("rabbit", "rabbitmq_prelaunch")  # the server itself, and its start-up
_VERSIONED = re.compile(r"^(?P<app>[a-z][a-z0-9_]*)-(?P<version>[0-9][A-Za-z0-9.+_-]*)$")
_APPLICATIONS = re.compile(r"\{\s*applications\s*,\s*\[(?P<names>[^\]]*)\]")


def installed() -> Path | None:
    """The plugin directory of the installed RabbitMQ, or None when there is not one here."""
    found = sorted(Path(p) for pattern in INSTALLED for p in glob.glob(pattern))
    return found[-1] if found else None


def needs(app_dir: Path, app: str) -> list[str] | None:
    """The applications ``app`` names in its .app file; None when it cannot be read."""
    try:
        text = (app_dir / "ebin" / f"{app}.app").read_text(errors="replace")
    except OSError:
        return None
    match = _APPLICATIONS.search(text)
    if match is None:
        return []
    return [name.strip() for name in match["names"].split(",") if name.strip()]


def shown(enabled: Iterable[str], into: Path, source: Path | None = None) -> Path | None:
    """A directory ``into`` of links to ``enabled``, ``ALWAYS`` and every plugin application
    they need (found in ``source``, the installed plugin directory by default). None, and
    nothing made, when any of it cannot be worked out: the node then sees every plugin."""
    enabled = tuple(enabled)
    source = source if source is not None else installed()
    if source is None:
        return None
    apps: dict[str, Path] = {}
    for entry in sorted(source.iterdir()):
        if entry.suffix == ".ez":
            return None  # packed plugins: their .app files are inside archives
        if (match := _VERSIONED.match(entry.name)) and entry.is_dir():
            apps[match["app"]] = entry  # sorted: the newest version of an app wins
    wanted: set[str] = set()
    todo = [*ALWAYS, *enabled]
    while todo:
        app = todo.pop()
        if app in wanted:
            continue
        if app not in apps:
            if app in ALWAYS or app in enabled:
                return None  # an enabled plugin that is not installed: let the node say so
            continue  # an Erlang/OTP application (kernel, ssl, mnesia ...): not a plugin
        wanted.add(app)
        names = needs(apps[app], app)
        if names is None:
            return None
        todo += names
    into.mkdir(parents=True, exist_ok=True)
    for app in sorted(wanted):
        if not (into / apps[app].name).is_symlink():  # made by an earlier attempt
            os.symlink(apps[app], into / apps[app].name)
    return into
