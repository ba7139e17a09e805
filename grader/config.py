"""Grader settings, resolved once from the command line into a frozen dataclass."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

DEFAULT_STUDENT_FIXTURES = Path("/opt/lab/fixtures")
DEFAULT_STATE_DIR = Path("/var/tmp/lab-grader")
SANDBOXES = ("auto", "namespace", "none")
# The seconds a grade's scripts have in all (see ProcessRegistry): a correct lab's take a few;
# it leaves half of batch's limit of 300 s for the rest of a grade, however slow its scripts.
SCRIPTS_BUDGET = 150.0
# --amqp-url and --management-url, when a class tool passes them (with an administrator's
# password): any user may read a command line, a process's environment only its own user.
AMQP_URL_VARIABLE = "LAB_GRADER_AMQP_URL"
MANAGEMENT_URL_VARIABLE = "LAB_GRADER_MANAGEMENT_URL"
# Exit codes of a run that graded nothing, besides pytest's own (0-5).
EXIT_BUSY = 75  # another grader has this lab root: try again when it is done (EX_TEMPFAIL)
EXIT_REFUSED = 77  # grading could not promise to put everything back, or was asked the impossible


@dataclass(frozen=True)
class GraderConfig:
    lab_root: Path | None  # None: grade a fresh walkthrough of the reference solution
    fixtures_dir: Path | None  # None: build the fixtures into the run's scratch tree
    labs: tuple[str, ...]
    results_json: Path | None
    state_dir: Path
    broker: str
    amqp_url: str | None
    rabbitmq_node: str | None
    management_url: str | None
    seed: int
    workers: int
    sandbox: str = "auto"  # auto | namespace | none
    scripts_root: Path | None = None  # the lab root as the scripts see it (None: lab_root)
    away_from_pod: bool = False  # a submission graded off its pod: M1.3 reads status.txt
    scripts_budget: float = SCRIPTS_BUDGET  # seconds all the run's scripts have (ProcessRegistry)

    @property
    def student_mode(self) -> bool:
        return self.lab_root is not None

    @classmethod
    def from_pytest(cls, config: pytest.Config, labs: tuple[str, ...]) -> GraderConfig:
        def path(name: str) -> Path | None:
            value = config.getoption(name)
            return Path(value).resolve() if value else None

        lab_root = path("lab_root")
        fixtures_dir = path("fixtures_dir")
        if lab_root is not None and fixtures_dir is None:
            fixtures_dir = DEFAULT_STUDENT_FIXTURES
        lab = config.getoption("lab")
        seed = config.getoption("grader_seed")
        return cls(
            lab_root=lab_root,
            fixtures_dir=fixtures_dir,
            labs=labs if lab is None else (lab,),
            results_json=path("results_json"),
            state_dir=path("state_dir") or DEFAULT_STATE_DIR,
            broker=config.getoption("broker"),
            amqp_url=config.getoption("amqp_url") or os.environ.get(AMQP_URL_VARIABLE),
            rabbitmq_node=config.getoption("rabbitmq_node"),
            management_url=config.getoption("management_url") or os.environ.get(MANAGEMENT_URL_VARIABLE),
            seed=random.SystemRandom().randrange(1 << 31) if seed is None else seed,
            workers=config.getoption("grader_workers"),
            sandbox=config.getoption("sandbox"),
            scripts_root=path("scripts_root"),
            away_from_pod=config.getoption("away_from_pod"),
            scripts_budget=config.getoption("scripts_budget"),
        )


def add_options(parser: pytest.Parser, labs: tuple[str, ...]) -> None:
    group = parser.getgroup("grader", "lab grader")
    group.addoption(
        "--lab-root",
        help="grade this lab root (a student's: /root); "
        "default: a fresh walkthrough of the reference solution",
    )
    group.addoption(
        "--fixtures-dir",
        help="the lab fixture tree (default with --lab-root: "
        f"{DEFAULT_STUDENT_FIXTURES}; otherwise built fresh)",
    )
    group.addoption("--lab", choices=labs, help="grade one lab only")
    group.addoption("--results-json", help="write Gradescope-format results to this file")
    group.addoption("--state-dir", help=f"where snapshots and scratch live ({DEFAULT_STATE_DIR})")
    group.addoption(
        "--broker",
        default="auto",
        choices=("auto", "local", "student", "url", "container"),
        help="RabbitMQ backend for the mq lab (default: auto)",
    )
    group.addoption(
        "--amqp-url",
        help=f"with --broker url: an AMQP URL with admin rights (or ${AMQP_URL_VARIABLE}: unlike a "
        "command line, the environment is not readable by other users)",
    )
    group.addoption(
        "--management-url",
        help="with --broker url: the management API (default http://HOST:15672 of the AMQP URL; "
        f"or ${MANAGEMENT_URL_VARIABLE})",
    )
    group.addoption(
        "--rabbitmq-node",
        help="with --broker url: the node's name for rabbitmqctl "
        "on this machine (live figures; ERL_EPMD_PORT from the environment)",
    )
    group.addoption("--grader-seed", type=int, help="seed of the randomised fixtures")
    group.addoption(
        "--sandbox",
        default="auto",
        choices=SANDBOXES,
        help="where student scripts run: namespace (bwrap: a private mount and PID namespace), "
        "none (on the host, the student's directories renamed aside), auto (namespace when it "
        "works here; default)",
    )
    group.addoption(
        "--scripts-root",
        help="the lab root as the student's scripts see it (default: --lab-root); another path "
        "needs the namespace sandbox: the working copies are mounted at PATH/q and PATH/eaimw/mq",
    )
    group.addoption(
        "--away-from-pod",
        action="store_true",
        help="the lab root is a submission graded away from the student's lab pod (batch, "
        "Gradescope, CI): M1.3 judges the node as status.txt shows it, not the live node here",
    )
    group.addoption(
        "--scripts-budget",
        type=float,
        default=SCRIPTS_BUDGET,
        metavar="SECONDS",
        help="the student's scripts of one grade have SECONDS in all from the first one's start "
        f"(default {SCRIPTS_BUDGET:g}); then every script still running, and any started later, is "
        "stopped as out of time and its checks FAIL. batch passes half its --timeout",
    )
    group.addoption(
        "--grader-workers",
        type=int,
        default=0,
        help="at most N scenarios at once (default 0: every scenario at once; they mostly wait)",
    )
