"""The fixture builder keeps the lab's promises (20 files, done 18 / error 2, 15 rows,
3 duplicates), writes the same bytes every time, and makes honest random variants."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

from fixtures.claims import Outcome, golden_claims
from fixtures.queue_messages import (
    REQUIRED_FIELDS,
    Kind,
    consumer_inbox,
    crowd_inbox,
    golden_set,
    race_copies,
)
from fixtures.tree import build
from tests.grading import REPO


def _tree_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_golden_inbox_keeps_the_labs_promises() -> None:
    g = golden_set()
    assert len(g.files) == 20
    assert (len(g.done_names), len(g.error_reasons)) == (18, 2)
    assert len(g.messages) == 15
    assert len(g.duplicate_ids) == 3
    assert sorted(g.error_reasons.values()) == ["missing-field", "parse"]
    assert len(g.fields - set(REQUIRED_FIELDS)) >= 2
    by_order: dict[object, list[int]] = {}
    for m in g.messages.values():
        by_order.setdefault(m["order_no"], []).append(int(str(m["seq"])))
    assert len(by_order) >= 2
    assert all(sorted(seqs) == list(range(1, len(seqs) + 1)) for seqs in by_order.values())
    assert max(len(seqs) for seqs in by_order.values()) >= 10
    assert not set(g.duplicate_ids) & g.names  # dup.txt made of file names cannot pass


def test_build_is_deterministic_atomic_and_complete(tmp_path: Path) -> None:
    run = [sys.executable, "-m", "fixtures", "build", "--dest"]
    for dest in ("a", "b"):
        subprocess.run([*run, str(tmp_path / dest)], cwd=REPO, check=True, capture_output=True)
    a, b = _tree_bytes(tmp_path / "a"), _tree_bytes(tmp_path / "b")
    assert a == b
    assert not [name for name in a if ".part" in name]
    inbox = [n for n in a if n.startswith("eai/queue/inbox/")]
    assert len(inbox) == 20 and all(n.endswith(".json") for n in inbox)
    for needed in ("eaimw/mq/mq-up.sh", "eaimw/partner.py"):
        assert needed in a
    assert (tmp_path / "a/eaimw/mq/mq-up.sh").stat().st_mode & 0o111
    claims = [json.loads(a[n]) for n in a if n.startswith("eaimw/mq/claims/")]
    assert len({c["guid"] for c in claims}) == len(claims) == len(golden_claims().files)
    assert any(c["docs"] == [] for c in claims)
    assert any(str(c["claimId"]).startswith("BUSY") for c in claims)


def test_rebuild_removes_stale_files(tmp_path: Path) -> None:
    build(tmp_path)
    (tmp_path / "eai/queue/inbox/stale.json").write_text("{}")
    build(tmp_path)
    assert not (tmp_path / "eai/queue/inbox/stale.json").exists()


def test_behaviour_inboxes_hold_every_class_and_differ() -> None:
    a, b = consumer_inbox(random.Random(1)), consumer_inbox(random.Random(2))
    assert not set(a.messages) & set(b.messages) and not a.names & b.names
    assert a.cases == b.cases  # the seed varies values, never which classes are there
    payloads = {f.case: f.data for f in a.files if f.kind is Kind.PARSE}
    assert payloads["parse-empty-file"] == b"" and payloads["parse-array"].startswith(b"[")
    for field in REQUIRED_FIELDS:
        absent = json.loads(a.of_case(f"absent-{field}")[0].data)
        nulled = json.loads(a.of_case(f"null-{field}")[0].data)
        assert field not in absent and nulled[field] is None, field
    falsy = {f.case: f.message for f in a.of_case("falsy-seq-0", "falsy-amount-0", "falsy-order_no-empty")}
    assert falsy["falsy-seq-0"] is not None and falsy["falsy-seq-0"]["seq"] == 0
    assert all(f.kind is Kind.VALID for f in a.of_case("falsy-amount-0.0", "falsy-order_no-empty"))
    different = a.of_case("dup-different-body")[0].message
    assert different is not None and len({json.dumps(m) for m in a.bodies[str(different["msg_id"])]}) == 2
    big = crowd_inbox(random.Random(3), valid=240, duplicates=40)
    assert len(big.files) == 282 and len(big.messages) == 240
    first, second = race_copies(random.Random(4))
    assert first.message == second.message and first.name != second.name


def test_golden_claims() -> None:
    claims = golden_claims()
    assert len(claims.of(Outcome.NO_DOCS)) == 1 and len(claims.of(Outcome.BUSY)) == 1
    assert len(claims.of(Outcome.ACCEPTED)) >= 2


def test_golden_inbox_bytes_never_change() -> None:
    """Lab pods hold fixtures built long ago (fixtures.tree.load compares bytes): the golden
    inbox is pinned, whatever else changes in the message builders."""
    digest = hashlib.sha256()
    for f in golden_set().files:
        digest.update(f.name.encode() + b"\0" + f.data + b"\0")
    assert digest.hexdigest() == "fc3429dcb6d14b48af0083f7d5be2b9d01666b9a302ad2926413d8370154a040"
