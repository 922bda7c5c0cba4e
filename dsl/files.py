"""Files maester writes: whole or not at all, never over their own input, and a failed write is an error.

`write_file` is the one writer every command uses (bundles, logs, saved positions, pictures, pages, formatted
content, vectors, schemas, docs, scaffolded packs):

- a regular file (new or existing) is written to a temporary file in the same folder, flushed and fsync'd,
  then renamed over the target (`os.replace`, atomic on POSIX): a full disk, a read-only folder or an
  interruption leaves the old file as it was and no temporary file behind;
- a device or a pipe (`/dev/null`, `/dev/stdout`, a FIFO) cannot be renamed over: it is written directly, and
  its failure (`/dev/full`: ENOSPC) is still an error;
- a symbolic link is followed: the file it points to is replaced, the link stays.

Every failure is one `WriteError` (a `MaesterError`: exit 1, `"ok": false`), never a traceback.

`refuse_overwrite` refuses an output that is one of the command's inputs (the same file by `os.path.samefile`,
or the same resolved path) before any work starts; `check_name` bounds path lengths (NAME_MAX, PATH_MAX).
Low-level `os` calls on purpose: each step's failure is seen where it happens (and tests can inject faults).
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from .diagnostics import Diagnostics, MaesterError, Span

MAX_NAME_BYTES = 255  # one path component (NAME_MAX of Linux, macOS and Windows file systems)
MAX_PATH_BYTES = 4096  # a whole path (PATH_MAX)
TEMP_PREFIX, TEMP_SUFFIX = ".maester-", ".tmp"  # short: a temporary name fits beside any allowed name
WRITE_CHUNK = 1 << 20

_WHY = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is exceeded",
        errno.EROFS: "the file system is read-only", errno.EACCES: "permission denied",
        errno.EPERM: "permission denied", errno.ENAMETOOLONG: "the file name is too long",
        errno.ENOENT: "its folder does not exist", errno.EISDIR: "it is a folder", errno.EFBIG: "the file is too large"}


class WriteError(MaesterError):
    """An output that could not be written; the old file (if any) is unchanged and nothing half-written is left."""


def _error(code: str, path: Path | str, message: str, hint: str | None = None) -> WriteError:
    diags = Diagnostics()
    diags.error(code, message, Span(str(path), 0, 0), hint)
    return WriteError(diags)


def why(e: OSError) -> str:
    """An OS error in words a user reads ("the disk is full")."""
    return _WHY.get(e.errno or 0) or e.strerror or str(e)


def write_file(path: Path | str, data: str | bytes) -> None:
    """Write `data` (text is UTF-8) to `path` whole or not at all (see the module docstring)."""
    write_files({Path(path): data})


def write_files(files: dict[Path, str | bytes]) -> None:
    """Several files, all or none: every one is written to a temporary file first, and they are renamed into
    place only when all of them were written (a full disk half-way leaves every old file as it was)."""
    staged: list[tuple[str, Path]] = []
    current = Path(".")
    try:
        devices = []
        for path, data in files.items():
            current = Path(path)
            check_name(current)
            blob = data.encode("utf-8") if isinstance(data, str) else bytes(data)
            real = Path(os.path.realpath(current))  # a link: its target is replaced, the link kept
            try:
                mode = os.stat(real).st_mode
            except FileNotFoundError:
                mode = None
            if mode is not None and stat.S_ISDIR(mode):
                raise _error("write-failed", current, "cannot be written: it is a folder")
            if mode is not None and not stat.S_ISREG(mode):
                devices.append((current, real, blob))  # written directly, after the files are staged
                continue
            staged.append((_stage(real, blob, mode), real))
        for shown_path, real, blob in devices:
            current = shown_path
            _write_device(real, blob)
        for tmp, real in staged:
            current = real
            os.replace(tmp, real)
        for folder in {real.parent for _, real in staged}:
            _sync_folder(folder)
    except OSError as e:
        raise _error("write-failed", current, f"cannot be written: {why(e)}; nothing was written",
                     "free some space, or write somewhere else" if e.errno in (errno.ENOSPC, errno.EDQUOT)
                     else None) from None
    finally:
        for tmp, _ in staged:  # after a failure: no temporary file left behind (renamed ones are gone already)
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def write_folder(target: Path | str, files: dict[str, str | bytes]) -> None:
    """A new folder holding `files` (names relative to it), whole or not at all: a failure removes what it
    created. The folder must not exist yet."""
    target = Path(target)
    check_name(target)
    made = [p for p in [target, *target.parents] if not p.exists()]  # what this call creates, deepest first
    try:
        target.mkdir(parents=True)
        write_files({target / name: data for name, data in files.items()})
    except (OSError, WriteError) as e:
        if made:  # only what this call created
            shutil.rmtree(made[-1], ignore_errors=True)
        if isinstance(e, WriteError):
            raise
        raise _error("write-failed", target, f"cannot be created: {why(e)}; nothing was written") from None


def _write_all(fd: int, blob: bytes) -> None:
    view = memoryview(blob)
    while view:
        n = os.write(fd, view[:WRITE_CHUNK])
        if n <= 0:  # pragma: no cover - a write that makes no progress
            raise OSError(errno.EIO, "the write made no progress")
        view = view[n:]


def _stage(target: Path, blob: bytes, mode: int | None) -> str:
    """A temporary file beside `target` holding `blob`, flushed to the disk; its name."""
    fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=target.parent)
    try:
        try:
            _write_all(fd, blob)
            os.fsync(fd)
            # an existing file keeps its permissions; a new one gets the usual ones (0666 less the umask)
            os.fchmod(fd, stat.S_IMODE(mode) if mode is not None else 0o666 & ~_umask())
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def _sync_folder(folder: Path) -> None:
    """The renames reach the disk with the folder (best effort: not every file system allows it)."""
    try:
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def _write_device(target: Path, blob: bytes) -> None:
    fd = os.open(target, os.O_WRONLY)
    try:
        _write_all(fd, blob)
        try:
            os.fsync(fd)
        except OSError as e:
            if e.errno not in (errno.EINVAL, errno.EROFS, errno.ENOTSUP, errno.EBADF):  # a pipe or a terminal
                raise
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def make_folder(path: Path | str) -> None:
    """A folder (and its parents) for outputs; its failure is one WriteError."""
    path = Path(path)
    check_name(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise _error("write-failed", path, f"cannot be created: {why(e)}") from None


# ---- names and inputs -----------------------------------------------------------------------------------

def name_problem(path: Path | str) -> str | None:
    """Why a path is too long to be a file name here, or None."""
    raw = os.fsencode(os.fspath(path))
    if len(raw) > MAX_PATH_BYTES:
        return f"the path has {len(raw):,} bytes; paths are at most {MAX_PATH_BYTES:,}"
    for part in raw.split(b"/"):
        if len(part) > MAX_NAME_BYTES:
            return f"a file name of {len(part):,} bytes; names are at most {MAX_NAME_BYTES} bytes"
    return None


def check_name(path: Path | str) -> None:
    problem = name_problem(path)
    if problem:
        shown = os.fspath(path)
        raise _error("name-too-long", shown[:60] + ("..." if len(shown) > 60 else ""), problem,
                     "use a shorter name")


def same_file(a: Path | str, b: Path | str) -> bool:
    """Whether two paths name the same file (hard links and links included); False if either is missing."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        try:
            return os.path.realpath(a) == os.path.realpath(b)
        except (OSError, ValueError):
            return False


def refuse_overwrite(output: Path | str | None, inputs: Iterable[Path | str], option: str = "the output",
                     allowed: Iterable[Path | str] = ()) -> None:
    """Refuse (before any work) an output that is one of the inputs: writing it would destroy what is read.
    `allowed` are inputs the command means to replace (`play --resume F --save F`), which it writes atomically."""
    if output is None or str(output) == "-":
        return
    check_name(output)
    if os.path.exists(output) and not os.path.isfile(output):
        return  # a device or a pipe is not a file that could be lost
    keep = list(allowed)
    for source in inputs:
        if same_file(output, source) and not any(same_file(output, a) for a in keep):
            raise _error("output-is-input", output, f"{option} {output} is also an input of this command: writing "
                         "it would destroy what is read", "write the output to another file")
