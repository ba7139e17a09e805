"""The submission format: a faithful round trip, and every unsafe entry refused before anything
is written."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from grader.classroom import submission
from grader.classroom.submission import (
    MANIFEST,
    UnsafeSubmission,
    lay_out,
    pack,
    submission_name,
    unpack,
)
from grader.classroom.version import REPO
from grader.machinery.snapshot import tree_digest


def _student_tree(root: Path) -> Path:
    """Every file kind a student leaves: modes, links (file, folder, dangling), empty folders,
    a read-only folder, binary data, names with spaces."""
    q = root / "q"
    for name in ("inbox", "processing", "done", "error"):
        (q / name).mkdir(parents=True)
    (q / "inbox" / "a 1.json").write_text('{"msg_id": "m-1"}\n')
    (q / "consume.py").write_text("#!/usr/bin/env python3\nprint('hi')\n")
    (q / "consume.py").chmod(0o750)
    (q / "ledger.db").write_bytes(bytes(range(256)) * 40)
    (q / "lag.sh").write_text("#!/bin/sh\n")
    (q / "lag.sh").chmod(0o700)
    (q / "latest").symlink_to("inbox/a 1.json")
    (q / "queue").symlink_to("inbox")
    (q / "gone").symlink_to("nothing-here")
    (q / "locked").mkdir(mode=0o555)
    mq = root / "eaimw" / "mq"
    mq.mkdir(parents=True)
    (mq / "status.txt").write_text("Status of node rabbit@localhost\n")
    (mq / "topology.py").write_text("import pika\n")
    (mq / "topology.py").chmod(0o755)
    (mq / "empty").mkdir()
    (root / "eaimw" / "partner.py").write_text("not part of the submission\n")
    return root


def _digests(root: Path) -> tuple[str, str]:
    return tree_digest(root / "q"), tree_digest(root / "eaimw" / "mq")


def test_pack_then_unpack_is_byte_for_byte(tmp_path: Path) -> None:
    root = _student_tree(tmp_path / "root")
    manifest = pack(root, tmp_path / "kim.tar.gz")
    unpack(tmp_path / "kim.tar.gz", tmp_path / "copy")
    assert _digests(tmp_path / "copy") == _digests(root)
    assert (tmp_path / "copy" / "q" / "queue").is_symlink()
    assert os.readlink(tmp_path / "copy" / "q" / "gone") == "nothing-here"
    assert (tmp_path / "copy" / "q" / "locked").stat().st_mode & 0o777 == 0o555
    assert not (tmp_path / "copy" / "eaimw" / "partner.py").exists()
    # The manifest names the lab root, the tool, and the sha256 of every regular file.
    assert manifest.lab_root == str(root) and manifest.tool.startswith("eai-lab-grader ")
    assert set(manifest.files) == {
        "q/inbox/a 1.json",
        "q/consume.py",
        "q/ledger.db",
        "q/lag.sh",
        "eaimw/mq/status.txt",
        "eaimw/mq/topology.py",
    }
    with tarfile.open(tmp_path / "kim.tar.gz") as tar:
        stream = tar.extractfile(MANIFEST)
        assert stream is not None
        assert json.loads(stream.read())["files"] == manifest.files


def test_a_folder_submission_goes_through_the_same_checks(tmp_path: Path) -> None:
    root = _student_tree(tmp_path / "upload" / "kim")  # wrapped in one more folder
    lay_out(tmp_path / "upload", tmp_path / "copy")
    assert _digests(tmp_path / "copy") == _digests(root)
    (root / "q" / "escape").symlink_to("/etc/passwd")
    with pytest.raises(UnsafeSubmission, match="밖을 가리키는 링크"):
        lay_out(tmp_path / "upload", tmp_path / "copy2")


def test_only_one_lab_may_be_handed_in(tmp_path: Path) -> None:
    (tmp_path / "root" / "q" / "inbox").mkdir(parents=True)
    pack(tmp_path / "root", tmp_path / "q-only.tar.gz")
    unpack(tmp_path / "q-only.tar.gz", tmp_path / "copy")
    assert (tmp_path / "copy" / "q" / "inbox").is_dir()
    assert not (tmp_path / "copy" / "eaimw").exists()
    with pytest.raises(UnsafeSubmission, match="담을 것이 없습니다"):
        pack(tmp_path / "nothing", tmp_path / "x.tar.gz")


def test_the_packer_refuses_what_the_unpacker_would(tmp_path: Path) -> None:
    root = _student_tree(tmp_path / "root")
    os.mkfifo(root / "q" / "pipe")
    with pytest.raises(UnsafeSubmission, match="특수 파일"):
        pack(root, tmp_path / "x.tar.gz")
    assert not (tmp_path / "x.tar.gz").exists()


def test_submission_names_drop_the_extension(tmp_path: Path) -> None:
    for name in ("kim.tar.gz", "lee.tgz", "park.tar"):
        (tmp_path / name).write_bytes(b"")
        assert submission_name(tmp_path / name) == name.split(".")[0]
    (tmp_path / "choi.v2").mkdir()
    assert submission_name(tmp_path / "choi.v2") == "choi.v2"


# refusals ---------------------------------------------------------------------------------------
Member = Callable[[tarfile.TarFile], None]


def _file(name: str, data: bytes = b"x") -> Member:
    def add(tar: tarfile.TarFile) -> None:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))

    return add


def _entry(name: str, kind: bytes, linkname: str = "") -> Member:
    def add(tar: tarfile.TarFile) -> None:
        info = tarfile.TarInfo(name)
        info.type, info.linkname = kind, linkname
        tar.addfile(info)

    return add


def _hostile(path: Path, *members: Member, files: dict[str, str] | None = None) -> Path:
    """A tar.gz with a manifest (listing ``files``) and the given entries."""
    manifest = {
        "format": "eai-lab-submission/1",
        "lab_root": "/root",
        "created": "now",
        "tool": "test",
        "files": files if files is not None else {},
    }
    with tarfile.open(path, "w:gz") as tar:
        _file(MANIFEST, json.dumps(manifest).encode())(tar)
        for add in members:
            add(tar)
    return path


SHA_X = "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"  # sha256(b"x")

HOSTILE: dict[str, tuple[list[Member], dict[str, str] | None, str]] = {
    "parent": ([_file("q/../../etc/cron.d/x")], {"q/../../etc/cron.d/x": SHA_X}, "\\.\\./"),
    "absolute": ([_file("/etc/x")], {"/etc/x": SHA_X}, "절대 경로"),
    "outside the parts": ([_file("etc/x")], {"etc/x": SHA_X}, "밖의 항목"),
    "absolute link": ([_entry("q/l", tarfile.SYMTYPE, "/etc/passwd")], None, "밖을 가리키는 링크"),
    "relative link out": ([_entry("q/l", tarfile.SYMTYPE, "../../x")], None, "밖을 가리키는 링크"),
    # Each link looks inside on its own; only following them shows q/c is dest's parent.
    "link chain out": (
        [
            _entry("q/a", tarfile.SYMTYPE, "."),
            _entry("q/b", tarfile.SYMTYPE, "a/.."),
            _entry("q/c", tarfile.SYMTYPE, "b/.."),
        ],
        None,
        "밖을 가리키는 링크",
    ),
    "below a link": (
        [_entry("q/l", tarfile.SYMTYPE, "inbox"), _file("q/l/x")],
        {"q/l/x": SHA_X},
        "링크 아래",
    ),
    "hard link": ([_file("q/a"), _entry("q/b", tarfile.LNKTYPE, "q/a")], {"q/a": SHA_X}, "하드 링크"),
    "device": ([_entry("q/dev", tarfile.CHRTYPE)], None, "특수 파일"),
    "fifo": ([_entry("q/fifo", tarfile.FIFOTYPE)], None, "특수 파일"),
    "duplicate": ([_file("q/a"), _file("q/a")], {"q/a": SHA_X}, "두 번"),
    "tampered": ([_file("q/a", b"y")], {"q/a": SHA_X}, "sha256"),
    "unlisted": ([_file("q/a"), _file("q/b")], {"q/a": SHA_X}, "파일 목록"),
}


@pytest.mark.parametrize("case", HOSTILE, ids=str)
def test_unsafe_entries_are_refused_and_nothing_is_left(case: str, tmp_path: Path) -> None:
    members, files, reason = HOSTILE[case]
    archive = _hostile(tmp_path / "x.tar.gz", *members, files=files)
    dest = tmp_path / "root"
    dest.mkdir()
    with pytest.raises(UnsafeSubmission, match=reason):
        unpack(archive, dest)
    assert list(dest.iterdir()) == []
    assert not (tmp_path / "etc").exists()


def test_oversized_member_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(submission, "MAX_MEMBER", 10)
    archive = _hostile(tmp_path / "x.tar.gz", _file("q/big", b"x" * 11), files={"q/big": SHA_X})
    with pytest.raises(UnsafeSubmission, match="너무 큽니다"):
        unpack(archive, tmp_path / "root")


def test_no_manifest_and_not_a_tar_are_refused(tmp_path: Path) -> None:
    with tarfile.open(tmp_path / "bare.tar.gz", "w:gz") as tar:
        _file("q/a")(tar)
    with pytest.raises(UnsafeSubmission, match=r"MANIFEST.json 이\(가\) 없습니다"):
        unpack(tmp_path / "bare.tar.gz", tmp_path / "root")
    (tmp_path / "junk.tar.gz").write_bytes(b"not a tar at all")
    with pytest.raises(UnsafeSubmission, match="읽을 수 없습니다"):
        unpack(tmp_path / "junk.tar.gz", tmp_path / "root")


def test_unpacking_over_existing_work_is_refused(tmp_path: Path) -> None:
    root = _student_tree(tmp_path / "root")
    pack(root, tmp_path / "kim.tar.gz")
    before = _digests(root)
    with pytest.raises(UnsafeSubmission, match="이미 있습니다"):
        unpack(tmp_path / "kim.tar.gz", root)
    assert _digests(root) == before


def test_the_pack_command(tmp_path: Path) -> None:
    root = _student_tree(tmp_path / "root")

    def pack_command(out: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "grader", "pack", "--lab-root", str(root), "-o", str(out)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    done = pack_command(tmp_path / "kim.tar.gz")
    assert done.returncode == 0 and "6 files" in done.stdout, done.stderr
    unpack(tmp_path / "kim.tar.gz", tmp_path / "copy")
    assert _digests(tmp_path / "copy") == _digests(root)
    os.mkfifo(root / "q" / "pipe")
    refused = pack_command(tmp_path / "lee.tar.gz")
    assert refused.returncode == 1 and "q/pipe" in refused.stderr
    assert not (tmp_path / "lee.tar.gz").exists()
