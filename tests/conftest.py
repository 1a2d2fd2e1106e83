"""Shared test fixtures: an isolated data folder and log folder for every test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# One Hypothesis profile for the whole suite. These machines are shared and busy: no deadline and no
# too_slow check anywhere, and on CI (CI=true) a fixed seed (derandomize) so a run can be repeated.
settings.register_profile(
    "companion",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "ci",
    parent=settings.get_profile("companion"),
    derandomize=True,
    print_blob=True,
)
settings.load_profile("ci" if os.environ.get("CI") else "companion")


@pytest.hookimpl(tryfirst=True)  # before pytest's tmp_path plugin reads --basetemp
def pytest_configure(config) -> None:
    """Before the workers start (they inherit both): temporary folders in memory, and companion's
    modules compiled once."""
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the controller has done it
        return
    _temporary_folders_in_memory(config)
    _compile_companion()


def _compile_companion() -> None:
    """Hundreds of tests run companion as a process; where the environment says
    PYTHONDONTWRITEBYTECODE=1 (as on CI), Python would compile every module it imports from source
    again in each of them (about a tenth of the suite's time). compileall writes the bytecode caches
    regardless; the processes then only read them."""
    import compileall

    import companion

    compileall.compile_dir(Path(companion.__file__).parent, quiet=1)  # a read-only install: nothing written


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session) -> None:
    _share_the_assert_rewriting(session.config)


def _share_the_assert_rewriting(config) -> None:
    """Each pytest-xdist worker collects every test module, and pytest rewrites the asserts of each
    module it imports: a third of a worker's collection time. It keeps the result in a bytecode cache
    next to the module, except where PYTHONDONTWRITEBYTECODE=1 (as on CI), so both workers did all of
    it. Here, before collecting, the first worker rewrites the modules from the first one on and the
    second from the last one back, each writing pytest's cache (atomically, checked against the
    source's hash when read) unless the other has; then both collect, reading the caches. The work
    is pytest's own (its rewrite module, whose names this needs): should they change, this does
    nothing and pytest rewrites as usual.
    """
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None or config.getoption("assertmode") != "rewrite":
        return
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        modules = sorted(Path(__file__).parent.rglob("test_*.py"))
        if int(workerinput.get("workerid", "gw0")[2:] or 0) % 2:
            modules.reverse()
        for module in modules:
            cache = rewrite.get_cache_dir(module)
            pyc = cache / (module.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(module, pyc) is not None or not rewrite.try_makedirs(cache):
                continue
            source_hash, code = rewrite._rewrite_test(module, config)
            rewrite._write_pyc(state, code, source_hash, pyc)
    except (ImportError, AttributeError, KeyError, TypeError, ValueError):
        return


def pytest_collection_finish(session) -> None:
    """Collected, a worker holds every module it imported and every test: objects that live to the end
    of the run, which Python's cycle collector would otherwise walk again at each of its full passes
    (about 3.5 s a worker). Frozen, they are left out of its passes; what the tests make is not. And
    it runs less often, as in ``companion play`` (companion.shell.prompts.settle_memory): 1.6 s."""
    import gc

    from companion.shell.prompts import GC_THRESHOLDS

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


#: Where the tests' temporary folders go when the machine has a memory file system with room.
MEMORY_FOLDER, MEMORY_NEEDED, MEMORY_PREFIX = "/dev/shm", 1 << 30, "companion-tests-"
#: A run's folder kept after a failure (or left by a run that was killed) is removed by the first run
#: that starts this long after it was made: memory is not a disk.
MEMORY_KEPT_FOR = 24 * 3600


def _forget_old_runs() -> None:
    import shutil
    import time

    for folder in Path(MEMORY_FOLDER).glob(MEMORY_PREFIX + "*"):
        try:
            if time.time() - folder.stat().st_mtime > MEMORY_KEPT_FOR:
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue


def _temporary_folders_in_memory(config) -> None:
    """Every test works in its own tmp_path, and every companion save is fsynced (twice: the file and
    its folder), as it must be at the table. On a disk that is real I/O: about a twentieth of the
    suite's time, waiting. In memory (tmpfs) the same calls return at once; the code run is the same.

    Only when no --basetemp was given, and the folder exists, is writable and has 1 GiB free (a run
    writes about 25 MB). The folder is made fresh for this run (two runs at once never share one) and
    removed at the end unless a test failed; then it is kept for a look (the path is printed) until a
    run starts a day later.
    """
    import tempfile

    if config.option.basetemp or not os.path.isdir(MEMORY_FOLDER) or not os.access(MEMORY_FOLDER, os.W_OK):
        return
    try:
        free = os.statvfs(MEMORY_FOLDER)
    except OSError:
        return
    if free.f_bavail * free.f_frsize < MEMORY_NEEDED:
        return
    _forget_old_runs()
    config.option.basetemp = tempfile.mkdtemp(prefix=MEMORY_PREFIX, dir=MEMORY_FOLDER)
    config.stash[_MEMORY_BASETEMP] = config.option.basetemp


_MEMORY_BASETEMP = pytest.StashKey[str]()


def pytest_sessionfinish(session, exitstatus) -> None:
    base = session.config.stash.get(_MEMORY_BASETEMP, None)
    if base is None:
        return
    if exitstatus == pytest.ExitCode.TESTS_FAILED:
        session.config.stash[_MEMORY_KEPT] = base
    else:
        import shutil

        shutil.rmtree(base, ignore_errors=True)


_MEMORY_KEPT = pytest.StashKey[str]()


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    kept = config.stash.get(_MEMORY_KEPT, None)
    if kept is not None:
        terminalreporter.write_line(f"the tests' temporary folders are kept in {kept} (remove it when done)")


def _cli_runner_builds_the_root_once() -> None:
    """typer's CliRunner builds a click command from the app it is given on every ``invoke``; the suite
    invokes companion's app a few thousand times. It gets the group the product itself runs
    (:func:`companion.cli.app.root_command`, built once per process); any other app is built as usual.
    """
    import typer.testing

    from companion.cli.app import app, root_command

    build = typer.testing._get_command
    typer.testing._get_command = lambda given: root_command() if given is app else build(given)


_cli_runner_builds_the_root_once()


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch):
    """No test touches the real user data folder, the repository's logs/, or an active session."""
    home = tmp_path / "home"
    logs = tmp_path / "logs"
    monkeypatch.setenv("COMPANION_HOME", str(home))
    monkeypatch.setenv("COMPANION_LOGS", str(logs))
    monkeypatch.setenv("COMPANION_STATE", str(tmp_path / "state"))  # the shell's history
    # `companion completion install` writes into the user's home and ~/.bashrc: a home of the test's own.
    user = tmp_path / "user-home"
    user.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(user))
    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "BASH_COMPLETION_USER_DIR"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("COMPANION_SESSION", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    # pytest-xdist's workers run with COLUMNS=80 and LINES=24 in their environment; a pseudo-terminal
    # test that copies os.environ would then see 80 columns whatever size it gives its terminal.
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
    # English unless a test asks for a language: the machine's locale chooses nothing here.
    for var in ("COMPANION_LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    from companion import i18n

    i18n.activate(None)
    yield home
    i18n.activate(None)


@pytest.fixture(scope="session")
def fault_templates(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """The fault-injection tests' sessions of 10 and 10,000 events (tests/fault_store.py), built once per
    run and worker, and copied for each run."""
    from tests.fault_store import SIZES, build

    return {name: build(tmp_path_factory.mktemp(f"faults{name}"), n) for name, n in SIZES.items()}
