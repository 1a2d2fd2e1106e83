"""Run one companion command with one system call made to fail, or the process killed there.

A forked child (it starts in milliseconds, with companion already imported) patches the ``os`` calls
that change files (``write``, ``pwrite``, ``fsync``, ``ftruncate``, ``replace``, ``rename``, ``unlink``;
and, when asked, ``open`` for writing and ``mkdir``), counts those that touch the data folder or the
logs folder, and at the chosen one raises ENOSPC or EIO (``once``: the disk recovers; ``full``: every
later write fails too), kills itself with SIGKILL just before it, or sends itself SIGTERM there (the
call then goes on, unless the signal ends the command first). It then runs ``companion ARGS`` as the
console script does and exits with its code. The parent gets the code, stdout and stderr, and how many
calls of each kind the run made (a run with no fault first, to know every point to try).
"""

from __future__ import annotations

import errno
import json
import os
import signal
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

KINDS = ("write", "pwrite", "fsync", "ftruncate", "replace", "rename", "unlink")
#: Opening a file for writing (a lock, a journal, a temporary file) and making a folder.
MAKING = ("open", "mkdir")
FD_KINDS = {"write", "pwrite", "fsync", "ftruncate"}
_WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


@dataclass
class Fault:
    kind: str | None = None  # one of KINDS, or None for a run without a fault
    at: int = 0  # the n-th call of that kind (from 1)
    mode: str = "kill"  # "kill", "ENOSPC" (once), "full" (ENOSPC from then on), "EIO", "SIGTERM"


@dataclass
class Run:
    code: int  # the exit code, or -9 when killed
    out: str
    err: str
    calls: dict[str, int] = field(default_factory=dict)

    @property
    def killed(self) -> bool:
        return self.code == -signal.SIGKILL


def _inside(path: object, roots: tuple[str, ...]) -> bool:
    try:
        text = os.fsdecode(path)  # type: ignore[arg-type]
    except TypeError:
        return False
    text = os.path.abspath(text)
    return any(text == r or text.startswith(r + os.sep) for r in roots)


def _patch(fault: Fault, roots: tuple[str, ...], counts: dict[str, int], kinds: tuple[str, ...]) -> None:
    failing = {"on": False}

    def fd_path(fd: int) -> str:
        try:
            return os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return ""

    def wrap(kind: str, real):
        def call(*args, **kwargs):
            target = fd_path(args[0]) if kind in FD_KINDS else (args[1] if kind in ("replace", "rename") else args[0])
            if kind in ("replace", "rename") and not _inside(target, roots):
                target = args[0]
            if kind == "open" and not (len(args) > 1 and args[1] & _WRITING):
                target = ""  # a read: not a point
            if _inside(target, roots):
                counts[kind] = counts.get(kind, 0) + 1
                hit = kind == fault.kind and counts[kind] == fault.at
                if hit and fault.mode == "kill":
                    os.kill(os.getpid(), signal.SIGKILL)
                if hit and fault.mode == "SIGTERM":
                    os.kill(os.getpid(), signal.SIGTERM)
                    return real(*args, **kwargs)
                if hit and fault.mode == "full":
                    failing["on"] = True
                writes = ("write", "pwrite", "fsync", "replace", "rename", "open", "mkdir")
                if kind in MAKING and fault.mode != "EIO" and os.path.lexists(target):
                    return real(*args, **kwargs)  # a full disk fails making a file or folder, not opening one
                if hit or (failing["on"] and kind in writes):
                    code = errno.EIO if fault.mode == "EIO" else errno.ENOSPC
                    raise OSError(code, os.strerror(code))
            return real(*args, **kwargs)

        return call

    for kind in kinds:
        setattr(os, kind, wrap(kind, getattr(os, kind)))


def run(
    args: list[str],
    home: Path,
    logs: Path,
    fault: Fault | None = None,
    stdin: str = "",
    kinds: tuple[str, ...] = KINDS,
) -> Run:
    """``companion ARGS`` in a forked child, with ``fault`` (or none), counting the calls of ``kinds``."""
    fault = fault or Fault()
    with tempfile.TemporaryDirectory() as tmp:
        out_path, err_path, calls_path = (Path(tmp) / n for n in ("out", "err", "calls"))
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            code = 70
            real_write = os.write
            try:
                fd_out = os.open(out_path, os.O_WRONLY | os.O_CREAT)
                fd_err = os.open(err_path, os.O_WRONLY | os.O_CREAT)
                fd_in = os.open(os.devnull, os.O_RDONLY)
                os.dup2(fd_out, 1)
                os.dup2(fd_err, 2)
                os.dup2(fd_in, 0)
                signal.signal(signal.SIGINT, signal.default_int_handler)
                signal.set_wakeup_fd(-1)
                os.environ.update(COMPANION_HOME=str(home), COMPANION_LOGS=str(logs))
                os.environ.pop("COMPANION_SESSION", None)
                sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
                sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
                sys.stdin = open(0, closefd=False)  # noqa: SIM115
                counts: dict[str, int] = {}
                roots = (os.path.abspath(home), os.path.abspath(logs))
                _patch(fault, roots, counts, kinds)
                from companion.cli.main import main

                code = main(args)
                sys.stdout.flush()
                sys.stderr.flush()
                fd = os.open(calls_path, os.O_WRONLY | os.O_CREAT)
                real_write(fd, json.dumps(counts).encode())
            except BaseException:
                import traceback

                traceback.print_exc()
                code = 71
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        calls = json.loads(calls_path.read_text()) if calls_path.exists() and calls_path.stat().st_size else {}
        return Run(code, out_path.read_text(), err_path.read_text(), calls)
