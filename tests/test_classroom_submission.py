"""The submission format: a faithful round trip, and every unsafe entry refused before anything
is written."""

from __future__ import annotations

import gzip
import io
import json
import os
import stat
import subprocess
import sys
import tarfile
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
    (root / "q" / "escape").unlink()
    outside = tmp_path / "instructors-file"
    outside.write_text("not the student's")
    os.link(outside, root / "q" / "borrowed.txt")  # a hard link, as a packed file cannot hold
    with pytest.raises(UnsafeSubmission, match="하드 링크"):
        lay_out(tmp_path / "upload", tmp_path / "copy3")
    assert not (tmp_path / "copy3" / "q").exists()
    pack(root, tmp_path / "own.tar.gz")  # a student packing their own pod: the file's bytes


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
    # eaimw/ is not in the archive and not yet in the destination: unpacking makes it.
    "link chain out through eaimw/": (
        [_entry("eaimw/mq/m", tarfile.SYMTYPE, "../.."), _entry("q/x", tarfile.SYMTYPE, "../eaimw/mq/m/..")],
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


def test_a_plain_tar_is_read_too(tmp_path: Path) -> None:
    root = _student_tree(tmp_path / "root")
    pack(root, tmp_path / "kim.tar.gz")
    (tmp_path / "kim.tar").write_bytes(gzip.decompress((tmp_path / "kim.tar.gz").read_bytes()))
    unpack(tmp_path / "kim.tar", tmp_path / "copy")
    assert _digests(tmp_path / "copy") == _digests(root)


# limits apply before the work they limit ---------------------------------------------------------
@pytest.fixture
def inflated(monkeypatch: pytest.MonkeyPatch) -> Callable[[], int]:
    """The bytes all zlib decompressors made during the test: what reading a gzip cost, whatever
    the machine's speed (the gzip module, as tarfile uses it, decompresses through zlib too)."""
    made = [0]
    real = zlib.decompressobj

    class Counted:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self._real = real(*args, **kwargs)

        def decompress(self, data: bytes, max_length: int = 0) -> bytes:
            out = self._real.decompress(data, max_length)
            made[0] += len(out)
            return out

        def flush(self, *args: int) -> bytes:
            out = self._real.flush(*args)
            made[0] += len(out)
            return out

        def __getattr__(self, name: str) -> Any:
            return getattr(self._real, name)

    monkeypatch.setattr(zlib, "decompressobj", Counted)
    return lambda: made[0]


def _refused(archive: Path, dest: Path, reason: str) -> int:
    """Unpack ``archive``, which must be refused for ``reason``; returns the peak of the memory
    Python allocated meanwhile."""
    tracemalloc.start()
    try:
        with pytest.raises(UnsafeSubmission, match=reason):
            unpack(archive, dest)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _header(
    name: bytes,
    flag: bytes = b"0",
    size: int = 0,
    *,
    mode: bytes = b"644",
    uid: bytes = b"0",
    mtime: bytes = b"0",
    linkname: bytes = b"",
) -> bytes:
    """One ustar header block, its number fields given as written (octal text, or base-256)."""
    block = bytearray(512)
    for at, value in (
        (0, name),
        (100, mode),
        (108, uid),
        (116, b"0"),
        (124, b"%o" % size),
        (136, mtime),
        (156, flag),
        (157, linkname),
        (257, b"ustar\x0000"),
    ):
        block[at : at + len(value)] = value
    block[148:156] = b" " * 8
    block[148:156] = b"%06o\0 " % sum(block)
    return bytes(block)


def _padded(data: bytes) -> bytes:
    return data + bytes(-len(data) % 512)


def _member(name: bytes, data: bytes = b"x", **fields: bytes) -> bytes:
    return _header(name, b"0", len(data), **fields) + _padded(data)


def _pax(records: dict[bytes, bytes], flag: bytes = b"x") -> bytes:
    body = b""
    for key, value in records.items():
        rest = b" %s=%s\n" % (key, value)
        length = len(rest) + 1
        while len(b"%d" % length) + len(rest) != length:
            length += 1
        body += b"%d%s" % (length, rest)
    return _header(b"././@PaxHeader", flag, len(body)) + _padded(body)


def _manifest(files: dict[str, str]) -> bytes:
    body = {"format": "eai-lab-submission/1", "lab_root": "/root", "created": "now", "tool": "test"}
    return json.dumps({**body, "files": files}).encode()


def _raw(path: Path, *blocks: bytes, manifest: bytes | None = None) -> Path:
    """A tar.gz written block by block: a manifest (listing nothing unless given), ``blocks``,
    the end."""
    with gzip.open(path, "wb", compresslevel=1) as out:
        out.write(_member(MANIFEST.encode(), _manifest({}) if manifest is None else manifest))
        for block in blocks:
            out.write(block)
        out.write(bytes(1024))
    return path


@pytest.mark.parametrize("flag", [b"x", b"L", b"K"], ids=["PAX", "GNU long name", "GNU long link"])
def test_a_huge_extended_header_is_refused_before_it_is_read(
    flag: bytes, tmp_path: Path, inflated: Callable[[], int]
) -> None:
    declared = 32 << 20  # and there indeed: 32 MiB of zeros, 32 KiB gzipped
    archive = tmp_path / "x.tar.gz"
    with gzip.open(archive, "wb", compresslevel=1) as out:
        out.write(_member(MANIFEST.encode(), _manifest({"q/a": SHA_X})))
        out.write(_header(b"././@LongLink", flag, declared))
        for _ in range(declared >> 20):
            out.write(bytes(1 << 20))
        out.write(_member(b"q/a") + bytes(1024))
    peak = _refused(archive, tmp_path / "root", f"확장 헤더\\({flag.decode()}\\)가 {declared} 바이트로")
    assert inflated() < 8 * 1024  # the manifest and a header: not one byte of the 32 MiB
    assert peak < 2 << 20


def test_too_many_members_are_refused_as_the_count_passes_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inflated: Callable[[], int]
) -> None:
    monkeypatch.setattr(submission, "MAX_MEMBERS", 100)
    archive = _hostile(tmp_path / "x.tar.gz", *[_file(f"q/{i}") for i in range(2_000)])
    with pytest.raises(UnsafeSubmission, match="항목이 101개로 너무 많습니다"):
        unpack(archive, tmp_path / "root")
    assert inflated() < 120 * 1024  # 100 members of 1 KiB were read, not 2,000


def test_file_bytes_are_counted_as_they_come(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inflated: Callable[[], int]
) -> None:
    monkeypatch.setattr(submission, "MAX_TOTAL", 64 * 1024)
    archive = _hostile(tmp_path / "x.tar.gz", *[_file(f"q/{i}", bytes(16 * 1024)) for i in range(64)])
    with pytest.raises(UnsafeSubmission, match=r"모두 .* 바이트를 넘어 너무 큽니다"):
        unpack(archive, tmp_path / "root")
    assert inflated() < 96 * 1024  # the limit's worth, not the 1 MiB the archive holds


def test_decompressed_bytes_are_capped_whatever_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inflated: Callable[[], int]
) -> None:
    """Every member small, every header under its limit: only the decompressed total stops 40
    PAX comments of 60 KB each."""
    monkeypatch.setattr(submission, "MAX_UNPACKED", 1 << 20)

    def commented(name: str) -> Member:
        def add(tar: tarfile.TarFile) -> None:
            info = tarfile.TarInfo(name)
            info.size, info.pax_headers = 1, {"comment": "z" * 60_000}
            tar.addfile(info, io.BytesIO(b"x"))

        return add

    names = [f"q/{i}" for i in range(40)]
    archive = _hostile(tmp_path / "x.tar.gz", *map(commented, names), files=dict.fromkeys(names, SHA_X))
    assert archive.stat().st_size < 64 * 1024
    with pytest.raises(UnsafeSubmission, match="압축을 푼 내용이 너무 큽니다\\(최대 1048576 바이트\\)"):
        unpack(archive, tmp_path / "root")
    assert inflated() <= 1 << 20


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 100_000,
        b'{"format": "eai-lab-submission/1", "files": {}, "x": [' + b"[]," * 1_000_000 + b"[]]}",
    ],
    ids=["deep", "wide"],
)
def test_a_manifest_cannot_blow_up(body: bytes, tmp_path: Path) -> None:
    archive = _raw(tmp_path / "x.tar.gz", manifest=body)
    peak = _refused(archive, tmp_path / "root", "MANIFEST.json 을\\(를\\) 읽을 수 없습니다: 배열")
    assert peak < 2 * len(body) + (1 << 20)  # json would have made ~20 times its size of lists


def test_names_and_link_walks_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(submission, "MAX_NAMES", 1_000)
    names = [f"q/{i:03}{'n' * 100}" for i in range(20)]
    archive = _hostile(tmp_path / "x.tar.gz", *map(_file, names), files=dict.fromkeys(names, SHA_X))
    with pytest.raises(UnsafeSubmission, match=r"이름과 링크 대상이 모두 1.* 바이트로 너무 깁니다"):
        unpack(archive, tmp_path / "root")
    monkeypatch.setattr(submission, "MAX_LINK_STEPS", 50)
    links = [_entry(f"q/l{i}", tarfile.SYMTYPE, "./././././././././x") for i in range(10)]
    archive = _hostile(tmp_path / "y.tar.gz", *links)
    with pytest.raises(UnsafeSubmission, match="링크가 너무 많이 얽혀"):
        unpack(archive, tmp_path / "root")


def test_link_loops_are_kept_and_stop(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "q").mkdir(parents=True)
    (root / "q" / "a").symlink_to("b/x")
    (root / "q" / "b").symlink_to("a/..")
    pack(root, tmp_path / "kim.tar.gz")
    unpack(tmp_path / "kim.tar.gz", tmp_path / "copy")
    assert os.readlink(tmp_path / "copy" / "q" / "a") == "b/x"


# odd metadata is a refusal with a reason ---------------------------------------------------------
def _odd_mtime(value: bytes) -> list[bytes]:
    return [_pax({b"mtime": value}), _member(b"q/a")]


ODD: dict[str, tuple[list[bytes], str]] = {
    "mtime nan": (_odd_mtime(b"nan"), "시각 mtime=b'nan' 이\\(가\\) 숫자가 아닙니다"),
    "mtime inf": (_odd_mtime(b"inf"), "시각 mtime=b'inf'"),
    "mtime 1e30": (_odd_mtime(b"1e30"), "시각 mtime=b'1e30'"),
    "mtime -1e30": (_odd_mtime(b"-1e30"), "시각 mtime=b'-1e30'"),
    "mtime words": (_odd_mtime(b"yesterday"), "시각 mtime=b'yesterday'"),
    "mtime 10**29": (_odd_mtime(b"1" + b"0" * 29), "수정 시각 1000.* 범위 밖"),
    "mtime base-256": ([_member(b"q/a", mtime=b"\x80" + b"\xff" * 11)], "수정 시각 .* 범위 밖"),
    "uid -1": ([_pax({b"uid": b"-1"}), _member(b"q/a")], "uid=b'-1' 이\\(가\\) 음이 아닌 정수가 아닙니다"),
    "uid 2**40": ([_pax({b"uid": b"%d" % 2**40}), _member(b"q/a")], "번호\\(uid\\)가 이상합니다"),
    "gid word": ([_pax({b"gid": b"staff"}), _member(b"q/a")], "gid=b'staff'"),
    "uid base-256 negative": ([_member(b"q/a", uid=b"\xff" * 8)], "번호\\(uid\\)가 이상합니다"),
    "mode not octal": ([_member(b"q/a", mode=b"0009999")], "mode 칸 b'0009999' 이\\(가\\) 8진수가 아닙니다"),
    "mode with a file type": ([_member(b"q/a", mode=b"0100644")], "권한 값 100644 이\\(가\\) 이상합니다"),
    "mode base-256": ([_member(b"q/a", mode=b"\x80" + b"\xff" * 7)], "권한 값 .* 이상합니다"),
    "path not UTF-8": ([_pax({b"path": b"q/\xff"}), _member(b"q/a")], "path 이\\(가\\) UTF-8 이 아닙니다"),
    "link not UTF-8": (
        [_pax({b"linkpath": b"\xe9"}), _header(b"q/l", b"2")],
        "linkpath 이\\(가\\) UTF-8 이 아닙니다",
    ),
    "uname not UTF-8": ([_pax({b"uname": b"\xc0"}), _member(b"q/a")], "uname 이\\(가\\) UTF-8"),
    "unknown charset": ([_pax({b"hdrcharset": b"KOI8-R"}), _member(b"q/a")], "hdrcharset"),
    "NUL in a name": ([_pax({b"path": b"q/a\0b"}), _member(b"q/a")], "NUL"),
    "unknown type": ([_header(b"q/a", b"Z")], "알 수 없는 종류\\(b'Z'\\)"),
    "volume header": ([_header(b"q/a", b"V")], "알 수 없는 종류\\(b'V'\\)"),
    "GNU sparse": ([_header(b"q/a", b"S")], "sparse"),
    "PAX sparse": ([_pax({b"GNU.sparse.major": b"1"}), _member(b"q/a")], "sparse"),
    "global header": ([_pax({b"comment": b"hi"}, b"g")], "전역 PAX 헤더"),
    "broken record": (
        [_header(b"h", b"x", 9) + _padded(b"99 a=b\n\n\n"), _member(b"q/a")],
        "기록이 깨졌습니다",
    ),
    "bad checksum": ([_member(b"q/a")[:100] + b"7" + _member(b"q/a")[101:]], "checksum 이 맞지 않습니다"),
    "header without entry": ([_pax({b"path": b"q/a"})], "확장 헤더 뒤에 항목 없이"),
    "two PAX headers": ([_pax({b"path": b"q/a"}), _pax({b"path": b"q/b"}), _member(b"q/c")], "두 번"),
    "folder with content": ([_header(b"q/d", b"5", 512) + bytes(512)], "파일이 아닌 항목\\(folder\\)에 512"),
    "truncated": ([_header(b"q/a", b"0", 4096)], "끊겼습니다"),
}


@pytest.mark.parametrize("case", ODD, ids=str)
def test_odd_metadata_is_refused_with_a_reason(case: str, tmp_path: Path) -> None:
    blocks, reason = ODD[case]
    archive = _raw(tmp_path / "x.tar.gz", *blocks, manifest=_manifest({"q/a": SHA_X}))
    if case == "truncated":  # the end and the 4 KiB of data never come
        archive.write_bytes(gzip.compress(gzip.decompress(archive.read_bytes())[:-1024]))
    dest = tmp_path / "root"
    dest.mkdir()
    with pytest.raises(UnsafeSubmission, match=reason):
        unpack(archive, dest)
    assert list(dest.iterdir()) == []


def test_a_hostile_name_cannot_forge_the_message(tmp_path: Path) -> None:
    archive = _raw(tmp_path / "x.tar.gz", _member(b"q/../\n\x1b[2J\xff"))
    with pytest.raises(UnsafeSubmission) as refused:
        unpack(archive, tmp_path / "root")
    assert str(refused.value).startswith("q/../\\n\\x1b[2J\\xff: ../ ")


def test_setuid_setgid_and_sticky_bits_are_dropped(tmp_path: Path) -> None:
    def entry(name: str, kind: bytes, mode: int) -> Member:
        def add(tar: tarfile.TarFile) -> None:
            info = tarfile.TarInfo(name)
            info.type, info.mode, info.size = kind, mode, int(kind == tarfile.REGTYPE)
            tar.addfile(info, io.BytesIO(b"x") if info.size else None)

        return add

    modes = {"q": 0o1777, "q/shared": 0o2775, "q/run": 0o4755, "q/tool": 0o6711, "q/plain": 0o640}
    members = [
        entry("q", tarfile.DIRTYPE, 0o1777),
        entry("q/shared", tarfile.DIRTYPE, 0o2775),
        entry("q/run", tarfile.REGTYPE, 0o4755),
        entry("q/tool", tarfile.REGTYPE, 0o6711),
        entry("q/plain", tarfile.REGTYPE, 0o640),
    ]
    files = {"q/run": SHA_X, "q/tool": SHA_X, "q/plain": SHA_X}
    unpack(_hostile(tmp_path / "x.tar.gz", *members, files=files), tmp_path / "root")
    found = {n: stat.S_IMODE(os.lstat(tmp_path / "root" / n).st_mode) for n in modes}
    assert found == {n: m & 0o777 for n, m in modes.items()}


# any name the filesystem allows ------------------------------------------------------------------
def test_names_that_are_not_utf8_round_trip_byte_for_byte(tmp_path: Path) -> None:
    root = tmp_path / "root"
    q = os.fsencode(root / "q")
    os.makedirs(q + b"/caf\xe9")  # Latin-1: not UTF-8
    names = [
        b"caf\xe9/\xff\xfe.txt",
        b"\xed\xa0\x80 (a surrogate, as CESU-8)",
        b"new\nline",
        "한글.txt".encode(),
    ]
    for name in names:
        with open(q + b"/" + name, "wb") as f:
            f.write(name)
    os.symlink(b"caf\xe9/\xff\xfe.txt", q + b"/link\xe9")
    manifest = pack(root, tmp_path / "kim.tar.gz")
    unpack(tmp_path / "kim.tar.gz", tmp_path / "copy")
    assert _digests(tmp_path / "copy") == _digests(root)
    copy = os.fsencode(tmp_path / "copy" / "q")
    assert sorted(os.listdir(copy)) == sorted(os.listdir(q))
    assert os.readlink(copy + b"/link\xe9") == b"caf\xe9/\xff\xfe.txt"
    # In MANIFEST.json (UTF-8 JSON) a byte that is not UTF-8 is the escape \udcNN, which json
    # reads back as os.fsdecode gives it.
    with tarfile.open(tmp_path / "kim.tar.gz") as tar:
        stream = tar.extractfile(MANIFEST)
        assert stream is not None
        raw = stream.read()
    assert b"q/caf\\udce9/\\udcff\\udcfe.txt" in raw
    files = json.loads(raw.decode("utf-8"))["files"]
    assert set(files) == set(manifest.files) == {os.fsdecode(b"q/" + n) for n in names}


# paths up to PATH_MAX -----------------------------------------------------------------------------
def _components(total: int, longest: int) -> list[bytes]:
    """Names, each at most ``longest`` bytes, that joined by "/" make ``total`` bytes."""
    out = []
    while total > longest:
        out.append(b"d" * min(longest, total - 2))
        total -= len(out[-1]) + 1
    assert total > 0
    return [*out, b"f" * total]


def _make_path(top: Path, components: list[bytes], data: bytes) -> None:
    """Folders ``top``/c1/c2/... and in the last a file, made through descriptors (the whole path
    may be longer than PATH_MAX)."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for name in components[:-1]:
            os.mkdir(name, dir_fd=fd)
            below = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = below
        out = os.open(components[-1], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o640, dir_fd=fd)
        os.write(out, data)
        os.close(out)
    finally:
        os.close(fd)


def _read_below(top: Path, path: bytes) -> tuple[int, bytes]:
    """The mode and bytes of the file ``path`` below ``top`` (``path`` itself below PATH_MAX)."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        f = os.open(path, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=fd)
        try:
            return stat.S_IMODE(os.fstat(f).st_mode), os.read(f, 1 << 16)
        finally:
            os.close(f)
    finally:
        os.close(fd)


def _remove_deep(top: Path) -> None:
    """Remove a tree of any depth (shutil.rmtree recurses: not 2,000 folders deep)."""
    subprocess.run(["rm", "-rf", "--", str(top)], check=True, timeout=60)


@pytest.mark.parametrize(
    ("below_q", "longest"),
    [(4085, 255), (4085, 1), (os.pathconf("/", "PC_PATH_MAX") - 3, 255)],
    ids=["4085 bytes of long names", "4085 bytes 2043 folders deep", "PATH_MAX - 1 with q/"],
)
def test_a_path_below_path_max_round_trips(below_q: int, longest: int, tmp_path: Path) -> None:
    """However deep the lab root and the destination lie: the limit is the path below them."""
    root, copy = tmp_path / "root", tmp_path / "copy"
    components = _components(below_q, longest)
    (root / "q").mkdir(parents=True)
    _make_path(root / "q", components, b"deep\n")
    path = b"q/" + b"/".join(components)
    assert len(path) == below_q + 2 and len(os.fsencode(copy)) + 1 + len(path) > 4096
    try:
        manifest = pack(root, tmp_path / "kim.tar.gz")
        assert os.fsdecode(path) in manifest.files
        unpack(tmp_path / "kim.tar.gz", copy)
        assert _read_below(copy, path) == (0o640, b"deep\n")
    finally:
        _remove_deep(root)
        _remove_deep(copy)


def test_a_path_beyond_path_max_is_refused_with_the_limit(tmp_path: Path) -> None:
    path_max, name_max = os.pathconf(tmp_path, "PC_PATH_MAX"), os.pathconf(tmp_path, "PC_NAME_MAX")
    components = _components(path_max - 2, name_max)  # with "q/": PATH_MAX bytes, no room for NUL
    root = tmp_path / "root"
    (root / "q").mkdir(parents=True)
    _make_path(root / "q", components, b"x")
    too_long = f"경로가 {path_max} 바이트로 너무 깁니다\\(최대 {path_max - 1}\\)"
    try:
        with pytest.raises(UnsafeSubmission, match=too_long):
            pack(root, tmp_path / "x.tar.gz")
        assert not (tmp_path / "x.tar.gz").exists()
    finally:
        _remove_deep(root)
    long_path = os.fsdecode(b"q/" + b"/".join(components))
    long_name = "q/" + "n" * (name_max + 1)
    too_long_name = f"이름 하나가 {name_max + 1} 바이트로 너무 깁니다\\(최대 {name_max}\\)"
    for name, reason in ((long_path, too_long), (long_name, too_long_name)):
        archive = _hostile(tmp_path / "x.tar.gz", _file(name), files={name: SHA_X})
        with pytest.raises(UnsafeSubmission, match=reason):
            unpack(archive, tmp_path / "copy")
        assert not (tmp_path / "copy" / "q").exists()
