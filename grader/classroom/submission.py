"""The submission format: a gzipped tar of LAB_ROOT/q and LAB_ROOT/eaimw/mq plus a manifest.

    MANIFEST.json     format, lab root, time, tool version, sha256 of every regular file
    q/...             the queue lab, every file kind kept: modes, links as links, empty folders
    eaimw/mq/...      the mq lab

Unpacking trusts nothing: every entry is checked before anything is written (no ``../``, no
absolute path, no link leading out, no hard link or special file, no oversized member, no
entry below a link, no duplicate, the manifest's hashes), files are created without following
links, and a folder submission goes through the same checks by being packed first.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import posixpath
import shutil
import stat
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from grader.classroom.version import tool_version

PARTS = ("q", "eaimw/mq")  # what a submission holds, relative to the lab root
MANIFEST = "MANIFEST.json"
FORMAT = "eai-lab-submission/1"
MAX_MEMBER = 64 * 1024 * 1024
MAX_TOTAL = 256 * 1024 * 1024
MAX_MEMBERS = 50_000
PACKED_SUFFIXES = (".tar.gz", ".tgz", ".tar")


class UnsafeSubmission(ValueError):
    """A submission that cannot be unpacked safely, or packed faithfully: the message says why."""


@dataclass(frozen=True)
class Manifest:
    lab_root: str
    created: str
    tool: str
    files: dict[str, str]  # archive path -> sha256 of its bytes

    def to_json(self) -> bytes:
        body = {
            "format": FORMAT,
            "lab_root": self.lab_root,
            "created": self.created,
            "tool": self.tool,
            "files": self.files,
        }
        return json.dumps(body, ensure_ascii=False, indent=2, sort_keys=True).encode()

    @classmethod
    def from_json(cls, data: bytes) -> Manifest:
        try:
            body = json.loads(data)
            if body.get("format") != FORMAT:
                raise UnsafeSubmission(
                    f"{MANIFEST}: 형식 {body.get('format')!r} 은(는) {FORMAT} 이(가) 아닙니다"
                )
            files = {str(k): str(v) for k, v in body["files"].items()}
            return cls(str(body["lab_root"]), str(body["created"]), str(body["tool"]), files)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            if isinstance(exc, UnsafeSubmission):
                raise
            raise UnsafeSubmission(f"{MANIFEST} 을(를) 읽을 수 없습니다: {exc}") from exc


def submission_name(path: Path) -> str:
    """The student's name in a batch: the file or folder name without its extension."""
    for suffix in PACKED_SUFFIXES:
        if path.name.endswith(suffix) and path.is_file():
            return path.name[: -len(suffix)]
    return path.name


# packing --------------------------------------------------------------------------------------
def _walk(lab_root: Path, part: str) -> Iterator[tuple[str, Path]]:
    """(archive name, path) of ``part`` and everything below it, parents first, sorted."""
    top = lab_root / part
    yield part, top
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            path = Path(dirpath, name)
            yield f"{part}/{path.relative_to(top).as_posix()}", path


def _member(name: str, path: Path) -> tarfile.TarInfo:
    st = path.lstat()
    info = tarfile.TarInfo(name)
    info.mode = stat.S_IMODE(st.st_mode) & 0o777
    info.mtime = int(st.st_mtime)
    if stat.S_ISLNK(st.st_mode):
        info.type, info.linkname = tarfile.SYMTYPE, os.readlink(path)
    elif stat.S_ISDIR(st.st_mode):
        info.type = tarfile.DIRTYPE
    elif stat.S_ISREG(st.st_mode):
        info.type, info.size = tarfile.REGTYPE, st.st_size
    else:
        raise UnsafeSubmission(f"{name}: 일반 파일·폴더·링크가 아닌 특수 파일은 담을 수 없습니다")
    return info


def pack(lab_root: Path, out: Path, parts: tuple[str, ...] = PARTS) -> Manifest:
    """Pack the lab root's q/ and eaimw/mq/ (those present) into ``out`` (a .tar.gz)."""
    present = [p for p in parts if (lab_root / p).exists() or (lab_root / p).is_symlink()]
    if not present:
        raise UnsafeSubmission(f"{lab_root} 에 {' 도 '.join(parts)} 도 없습니다: 담을 것이 없습니다")
    for part in present:
        if (lab_root / part).is_symlink() or not (lab_root / part).is_dir():
            raise UnsafeSubmission(f"{lab_root / part} 은(는) 폴더여야 합니다(링크나 파일이 아니라)")
    members = [_member(name, path) for part in present for name, path in _walk(lab_root, part)]
    check_members(members)
    files = {}
    for info in members:
        if info.isfile():
            files[info.name] = _sha256(lab_root / info.name)
    manifest = Manifest(str(lab_root), datetime.now(UTC).isoformat(timespec="seconds"), tool_version(), files)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=out.parent, prefix=f".{out.name}.", delete=False) as tmp:
        try:
            with tarfile.open(fileobj=tmp, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
                data = manifest.to_json()
                head = tarfile.TarInfo(MANIFEST)
                head.size, head.mode, head.mtime = len(data), 0o644, int(datetime.now().timestamp())
                tar.addfile(head, io.BytesIO(data))
                for info in members:
                    if info.isfile():
                        with (lab_root / info.name).open("rb") as f:
                            tar.addfile(info, f)
                    else:
                        tar.addfile(info)
            tmp.flush()
            os.fsync(tmp.fileno())
            os.rename(tmp.name, out)
        except BaseException:
            os.unlink(tmp.name)
            raise
    return manifest


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# checking ---------------------------------------------------------------------------------------
def _part_of(name: str) -> str | None:
    return next((p for p in PARTS if name == p or name.startswith(f"{p}/")), None)


def check_members(members: list[tarfile.TarInfo]) -> None:
    """Refuse, with the entry's name and the reason, anything that could write outside the target
    folder or is not a faithful part of a lab root."""
    if len(members) > MAX_MEMBERS:
        raise UnsafeSubmission(f"항목이 {len(members)}개로 너무 많습니다(최대 {MAX_MEMBERS})")
    seen: set[str] = set()
    links: set[str] = set()
    total = 0
    for info in members:
        name = info.name
        if name.startswith("/") or posixpath.isabs(name):
            raise UnsafeSubmission(f"{name}: 절대 경로 항목은 받을 수 없습니다")
        if ".." in name.split("/") or posixpath.normpath(name) != name.rstrip("/"):
            raise UnsafeSubmission(f"{name}: ../ 나 정규화되지 않은 경로는 받을 수 없습니다")
        name = name.rstrip("/")
        if name != MANIFEST and _part_of(name) is None:
            raise UnsafeSubmission(f"{name}: q/ 나 eaimw/mq/ 밖의 항목입니다")
        if name in seen:
            raise UnsafeSubmission(f"{name}: 같은 이름의 항목이 두 번 있습니다")
        parents = name.split("/")[:-1]
        for i in range(1, len(parents) + 1):
            if "/".join(parents[:i]) in links:
                raise UnsafeSubmission(f"{name}: 링크 아래에 놓인 항목은 받을 수 없습니다")
        if info.islnk():
            raise UnsafeSubmission(f"{name}: 하드 링크는 받을 수 없습니다(파일로 담으세요)")
        if info.issym():
            target = info.linkname
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
            if posixpath.isabs(target) or resolved == ".." or resolved.startswith("../"):
                raise UnsafeSubmission(f"{name} -> {target}: 제출물 밖을 가리키는 링크입니다")
            links.add(name)
        elif not (info.isfile() or info.isdir()):
            raise UnsafeSubmission(f"{name}: 특수 파일(장치, FIFO 등)은 받을 수 없습니다")
        if info.size > MAX_MEMBER:
            raise UnsafeSubmission(f"{name}: {info.size} 바이트로 너무 큽니다(최대 {MAX_MEMBER})")
        total += info.size
        if total > MAX_TOTAL:
            raise UnsafeSubmission(f"제출물이 모두 {total} 바이트를 넘어 너무 큽니다(최대 {MAX_TOTAL})")
        seen.add(name)


# unpacking --------------------------------------------------------------------------------------
def unpack(archive: Path, dest: Path) -> Manifest:
    """Unpack a packed submission into the lab root ``dest``, which must hold neither q/ nor
    eaimw/mq/ yet. Nothing is written unless every entry passes the checks."""
    for part in PARTS:
        if (dest / part).exists() or (dest / part).is_symlink():
            raise UnsafeSubmission(f"{dest / part} 이(가) 이미 있습니다: 빈 곳에만 풉니다")
    try:
        with tarfile.open(archive, mode="r:*") as tar:
            members = tar.getmembers()
            check_members(members)
            manifest = _read_manifest(tar, members)
            files = {m.name for m in members if m.isfile() and m.name != MANIFEST}
            if files != set(manifest.files):
                extra = sorted(files ^ set(manifest.files))[:5]
                raise UnsafeSubmission(f"{MANIFEST} 의 파일 목록이 내용과 다릅니다: {extra}")
            had_eaimw = (dest / "eaimw").exists()
            try:
                _extract(tar, members, dest, manifest)
            except BaseException:
                _remove(dest, had_eaimw)
                raise
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise UnsafeSubmission(f"{archive.name}: tar.gz 로 읽을 수 없습니다: {exc}") from exc
    return manifest


def _read_manifest(tar: tarfile.TarFile, members: list[tarfile.TarInfo]) -> Manifest:
    head = next((m for m in members if m.name == MANIFEST), None)
    if head is None or not head.isfile():
        raise UnsafeSubmission(f"{MANIFEST} 이(가) 없습니다: python -m grader pack 으로 만든 파일이 아닙니다")
    stream = tar.extractfile(head)
    assert stream is not None
    return Manifest.from_json(stream.read(MAX_MEMBER))


def _extract(tar: tarfile.TarFile, members: list[tarfile.TarInfo], dest: Path, manifest: Manifest) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    dirs: list[tarfile.TarInfo] = []
    for info in members:
        if info.name == MANIFEST:
            continue
        path = dest / info.name
        path.parent.mkdir(parents=True, exist_ok=True)
        if info.isdir():
            path.mkdir(exist_ok=True)
            dirs.append(info)
        elif info.issym():
            os.symlink(info.linkname, path)
        else:
            _write_file(tar, info, path, manifest.files[info.name])
        if not info.isdir():
            os.utime(path, (info.mtime, info.mtime), follow_symlinks=False)
    for info in members:  # a link may only point at what the submission itself holds
        if info.issym():
            real = Path(os.path.realpath(dest / info.name))
            if not real.is_relative_to(dest.resolve()):
                raise UnsafeSubmission(f"{info.name} -> {info.linkname}: 제출물 밖을 가리키는 링크입니다")
    for info in reversed(dirs):  # last, so a read-only folder did not stop its own content
        os.chmod(dest / info.name, info.mode)
        os.utime(dest / info.name, (info.mtime, info.mtime))


def _write_file(tar: tarfile.TarFile, info: tarfile.TarInfo, path: Path, expected: str) -> None:
    stream = tar.extractfile(info)
    assert stream is not None
    digest = hashlib.sha256()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as out:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
            out.write(block)
    if digest.hexdigest() != expected:
        raise UnsafeSubmission(f"{info.name}: 내용이 {MANIFEST} 의 sha256 과 다릅니다(손상된 파일)")
    os.chmod(path, info.mode)


def _remove(dest: Path, had_eaimw: bool) -> None:
    """Undo a refused unpack: the parts did not exist before it, so they go whole."""
    for part in PARTS:
        target = dest / part
        if target.is_symlink() or target.is_file():
            target.unlink()
        elif target.exists():
            for dirpath, _, _ in os.walk(target):  # a read-only folder must not stop it
                os.chmod(dirpath, 0o700)
            shutil.rmtree(target)
    if not had_eaimw and (dest / "eaimw").is_dir() and not any((dest / "eaimw").iterdir()):
        (dest / "eaimw").rmdir()


def lay_out(submission: Path, dest: Path) -> Manifest:
    """Put a submission (a packed file, a folder holding just one, or a folder holding q/ and/or
    eaimw/mq/) into the lab root ``dest``, checked the same way either way."""
    packed = submission if submission.is_file() else packed_file_in(submission)
    if packed is not None:
        return unpack(packed, dest)
    folder = find_lab_root(submission)
    with tempfile.TemporaryDirectory(prefix="submission-") as tmp:
        repacked = Path(tmp) / "submission.tar.gz"
        pack(folder, repacked)
        return unpack(repacked, dest)


def find_lab_root(folder: Path) -> Path:
    """The folder holding q/ or eaimw/mq/: ``folder`` itself or, for an upload wrapped in one
    more folder, its single subfolder."""
    if not folder.is_dir():
        raise UnsafeSubmission(f"{folder}: 제출물(파일이나 폴더)을 찾을 수 없습니다")
    if any((folder / p).exists() for p in PARTS):
        return folder
    inside = [p for p in folder.iterdir() if not p.name.startswith(".")]
    if len(inside) == 1 and inside[0].is_dir() and not inside[0].is_symlink():
        return find_lab_root(inside[0])
    raise UnsafeSubmission(f"{folder}: q/ 도 eaimw/mq/ 도 없습니다(실습 파일을 그 이름의 폴더로 올리세요)")


def packed_file_in(folder: Path) -> Path | None:
    """The one packed submission in an upload folder, if that is what was uploaded."""
    packed = (
        [p for p in folder.iterdir() if p.is_file() and p.name.endswith(PACKED_SUFFIXES)]
        if folder.is_dir()
        else []
    )
    return packed[0] if len(packed) == 1 and not any((folder / p).exists() for p in PARTS) else None
