"""The mq lab's stage and one session fixture per behaviour scenario (the lab itself:
grader/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest

from grader.mq.lab import MqLab, Stage


@pytest.fixture(scope="session")
def mq_stage(mq_lab: MqLab) -> Stage:
    """The broker is up and the student's files are saved (a broker fault is an ERROR)."""
    return mq_lab.stage.get()


def _observed(lab: MqLab, name: str) -> Any:
    return lab.grading.pool.result(f"mq.{name}")


@pytest.fixture(scope="session")
def topology(mq_lab: MqLab) -> Any:
    return _observed(mq_lab, "topology")


@pytest.fixture(scope="session")
def publish(mq_lab: MqLab) -> Any:
    return _observed(mq_lab, "publish")


@pytest.fixture(scope="session")
def unroutable(mq_lab: MqLab) -> Any:
    return _observed(mq_lab, "unroutable")


@pytest.fixture(scope="session")
def nacked(mq_lab: MqLab) -> Any:
    return _observed(mq_lab, "nacked")


@pytest.fixture(scope="session")
def good_claims(mq_lab: MqLab) -> Any:
    return _observed(mq_lab, "good_claims")


@pytest.fixture(scope="session")
def killed_mid_request(mq_lab: MqLab) -> Any:
    return _observed(mq_lab, "killed_mid_request")


@pytest.fixture(scope="session")
def business_rejection(mq_lab: MqLab) -> Any:
    return _observed(mq_lab, "business_rejection")


@pytest.fixture(scope="session")
def busy_claim(mq_lab: MqLab) -> Any:
    return _observed(mq_lab, "busy_claim")


@pytest.fixture(scope="session")
def claim_system_down(mq_lab: MqLab) -> Any:
    return _observed(mq_lab, "claim_system_down")


@pytest.fixture(scope="session")
def claim_system_hangs(mq_lab: MqLab) -> Any:
    return _observed(mq_lab, "claim_system_hangs")


@pytest.fixture(scope="session")
def prefetch_default(mq_lab: MqLab) -> Any:
    return _observed(mq_lab, "prefetch_default")


@pytest.fixture(scope="session")
def prefetch_two(mq_lab: MqLab) -> Any:
    return _observed(mq_lab, "prefetch_two")


@pytest.fixture(scope="session")
def dedup(mq_lab: MqLab) -> Any:
    return _observed(mq_lab, "dedup")


@pytest.fixture(scope="session")
def record_only_success(mq_lab: MqLab) -> Any:
    return _observed(mq_lab, "record_only_success")
