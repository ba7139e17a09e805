"""The plugins a private node is shown (grader/machinery/plugins.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fixtures.tree import MQ_PLUGINS
from grader.machinery import plugins

FIXTURE_MQ_UP = Path(__file__).resolve().parent.parent / "fixtures" / "files" / "mq-up.sh"


def test_the_plugins_named_are_the_ones_mq_up_enables() -> None:
    written = re.findall(r"echo '\[(.*)\]\.' >\"\$MQ_BASE/enabled_plugins\"", FIXTURE_MQ_UP.read_text())
    assert written, "mq-up.sh no longer writes enabled_plugins the way this test reads it"
    assert tuple(name.strip() for name in written[0].split(",")) == MQ_PLUGINS


def test_the_installed_server_is_shown_the_management_plugin_and_what_it_needs(tmp_path: Path) -> None:
    source = plugins.installed()
    assert source is not None, "rabbitmq-server is not installed where Debian puts it"
    shown = plugins.shown(MQ_PLUGINS, tmp_path / "plugins")
    assert shown is not None
    names = {re.sub(r"-[0-9][^-]*$", "", link.name) for link in shown.iterdir()}
    needed = {"rabbit", "rabbit_common", "rabbitmq_prelaunch", "rabbitmq_management"}
    needed |= {"rabbitmq_management_agent", "rabbitmq_web_dispatch", "amqp_client", "cowboy", "ranch", "ra"}
    assert needed <= names, needed - names
    assert not names & {"rabbitmq_mqtt", "rabbitmq_stomp", "rabbitmq_shovel", "rabbitmq_federation"}
    assert all(link.is_symlink() and (link / "ebin").is_dir() for link in shown.iterdir())
    assert len(names) < len([p for p in source.iterdir() if p.is_dir()])


def _plugin(source: Path, app: str, needs: str) -> None:
    ebin = source / f"{app}-1.0.0" / "ebin"
    ebin.mkdir(parents=True)
    term = f'{{application,{app},[{{vsn,"1.0.0"}},{{applications,[{needs}]}}]}}.\n'
    (ebin / f"{app}.app").write_text(term)


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """A plugin directory laid out as RabbitMQ's: rabbit needs ra; the plugin needs rabbit."""
    source = tmp_path / "installed"
    _plugin(source, "rabbit", "kernel,stdlib,ra")
    _plugin(source, "ra", "kernel")
    _plugin(source, "rabbitmq_prelaunch", "kernel")
    _plugin(source, "rabbitmq_management", "kernel,\n  rabbit")
    _plugin(source, "rabbitmq_mqtt", "rabbit")
    return source


def test_dependencies_are_followed_and_nothing_else_is_shown(source: Path, tmp_path: Path) -> None:
    shown = plugins.shown(["rabbitmq_management"], tmp_path / "shown", source)
    assert shown is not None
    assert sorted(p.name for p in shown.iterdir()) == [
        "ra-1.0.0",
        "rabbit-1.0.0",
        "rabbitmq_management-1.0.0",
        "rabbitmq_prelaunch-1.0.0",
    ]
    assert plugins.shown(["rabbitmq_management"], tmp_path / "shown", source) == shown  # again: kept


def test_anything_unusual_leaves_every_plugin_shown(source: Path, tmp_path: Path) -> None:
    assert plugins.shown(["rabbitmq_stomp"], tmp_path / "a", source) is None  # not installed
    (source / "ra-1.0.0" / "ebin" / "ra.app").unlink()
    assert plugins.shown(["rabbitmq_management"], tmp_path / "b", source) is None  # unreadable .app
    (source / "rabbitmq_web_stomp-1.0.0.ez").write_bytes(b"PK")
    assert plugins.shown(["rabbitmq_management"], tmp_path / "c", source) is None  # packed plugins
    assert not any((tmp_path / name).exists() for name in "abc")
