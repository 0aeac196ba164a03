"""The error boundary every ``hansa-lab`` command runs inside, from its first import to its
last line of output: what each way of ending prints and the exit status that says it.

=======================================  ====  =============================================
how the command ends                     exit  what it prints (stderr)
=======================================  ====  =============================================
finished                                 0/1   its output (1: it found a failure)
a bad argument, option value or file     2     one line naming the option, file or field
(``CliError``; the project's bad-input
errors; a user path that cannot be read
or written)
the run failed (``CliFailure``, a        1     one line
strategy's error, disk full)
Ctrl-C, at any moment                    130   one line (the runs: completed work is kept)
SIGTERM, at any moment                   143   one line (the runs: completed work is kept)
its output closed early (``| head``)     141   nothing
a bug in hansa-lab                       1     the traceback, then one line saying so
=======================================  ====  =============================================

Only the standard library and :mod:`hansa_lab.errors` (itself standard library only) are
imported here, so that the ``hansa-lab`` entry point
(:func:`hansa_lab.tools.cli.main`) is inside the boundary before the engine, pandas or the
commands load: a Ctrl-C in the first second of start-up ends like one in the middle of a run.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys

from hansa_lab.errors import raise_terminated, raise_unless_lost

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing before the boundary
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

#: Exit statuses: a usage error, and 128 + the signal for an ending by a signal.
EXIT_USAGE = 2
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE
EXIT_TERMINATED = 128 + signal.SIGTERM

#: errno values of an OSError that mean a path the user gave is wrong (exit 2): missing,
#: not allowed, a folder where a file is wanted or the other way round, a name too long.
USER_PATH_ERRNOS = frozenset({
    errno.ENOENT, errno.EACCES, errno.EPERM, errno.EISDIR, errno.ENOTDIR,
    errno.ENAMETOOLONG, errno.EROFS, errno.EEXIST, errno.ELOOP, errno.ENOTEMPTY,
    errno.EINVAL, errno.ENXIO, errno.ENODEV,
})

#: The project's exceptions that mean a bad input (module, class name): the message names
#: the field, position or file. Looked up among the modules already loaded, since an
#: exception can only be an instance of a class whose module was imported.
BAD_INPUT_ERRORS = (
    ("hansa_lab.errors", "ExperimentError"),
    ("hansa_lab.errors", "ActionParseError"),
    ("hansa_lab.errors", "IllegalActionError"),
    ("hansa_lab.engine.position", "PositionError"),
    ("hansa_lab.strategies.strategy_file", "StrategyFileError"),
)
#: The project's exceptions that mean a run failed, not a bug (exit 1, one line).
FAILURE_ERRORS = (
    ("hansa_lab.errors", "StrategyError"),
    ("hansa_lab.errors", "SimulationFailed"),
    ("hansa_lab.sim.store", "FolderBusy"),
)


def loaded_classes(names: tuple[tuple[str, str], ...]) -> tuple[type[BaseException], ...]:
    """The classes of ``names`` whose modules are loaded."""
    out = []
    for module, name in names:
        cls = getattr(sys.modules.get(module), name, None)
        if isinstance(cls, type) and issubclass(cls, BaseException):
            out.append(cls)
    return tuple(out)


def _raise_interrupted(signum: int, frame: object) -> None:
    raise_unless_lost(KeyboardInterrupt(), signum, frame)


class SignalsAsExceptions:
    """While a command runs (in the main thread), SIGTERM raises
    :class:`~hansa_lab.errors.RunTerminated`, a KeyboardInterrupt, so that it ends the
    command like Ctrl-C: runs save what they finished and say so. Ctrl-C raises
    KeyboardInterrupt as Python's own handler does, but never where Python would drop it
    (:func:`~hansa_lab.errors.raise_unless_lost`). A handler set by the caller (or a signal
    ignored) is left alone; the previous handlers come back after."""

    def __init__(self) -> None:
        self.previous: dict[int, object] = {}

    def __enter__(self) -> SignalsAsExceptions:
        if not threading_is_main():
            return self
        if hasattr(signal, "SIGTERM") and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            self.previous[signal.SIGTERM] = signal.signal(signal.SIGTERM, raise_terminated)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self.previous[signal.SIGINT] = signal.signal(signal.SIGINT, _raise_interrupted)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]
        self.previous.clear()


def threading_is_main() -> bool:
    """True in the main thread (the only one where signal handlers may be set)."""
    import threading

    return threading.current_thread() is threading.main_thread()


def say(line: str) -> None:
    """One line on stderr; nothing if stderr itself is closed."""
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr, flush=True)


def silence_stdout() -> None:
    """After stdout's reader went away: point its file descriptor at the null device, so
    that what is still buffered, flushed at exit, goes nowhere instead of raising again
    ("Exception ignored ... BrokenPipeError"); the pattern of the Python documentation's
    note on SIGPIPE."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's capture)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def flush_stdout() -> None:
    """Flush stdout inside the boundary (a closed pipe is found here, not at exit)."""
    stream = sys.stdout
    if stream is not None:
        stream.flush()


def option_names(parser: argparse.ArgumentParser | None, command: str | None) -> dict[str, str]:
    """dest → how the user writes it (``--out``, ``RESULTS``) for ``command``'s options."""
    if parser is None or command is None:
        return {}
    sub = next((a for a in parser._actions
                if isinstance(getattr(a, "choices", None), dict)
                and command in a.choices), None)  # type: ignore[operator]
    if sub is None:
        return {}
    names = {}
    for action in sub.choices[command]._actions:  # type: ignore[index]
        if action.option_strings:
            names[action.dest] = max(action.option_strings, key=len)
        else:
            names[action.dest] = action.metavar if isinstance(action.metavar, str) \
                else action.dest.upper()
    return names


def option_of_path(path: object, args: argparse.Namespace | None,
                   names: dict[str, str]) -> str | None:
    """The option whose value is ``path`` or a folder above it, if any."""
    if args is None or path is None:
        return None
    target = os.path.abspath(os.path.expanduser(os.fsdecode(path)))  # type: ignore[arg-type]
    best: tuple[int, str] | None = None
    for dest, value in vars(args).items():
        values = value if isinstance(value, list) else [value]
        for v in values:
            if dest == "command" or not isinstance(v, (str, os.PathLike)) or not os.fspath(v):
                continue
            given = os.path.abspath(os.path.expanduser(os.fsdecode(v)))
            inside = given == target or target.startswith(given.rstrip(os.sep) + os.sep)
            if inside and (best is None or len(given) > best[0]):
                best = (len(given), names.get(dest, "--" + dest.replace("_", "-")))
    return best[1] if best else None


class Outcome:
    """How a command ended: the exit status, after the one line is printed."""

    def __init__(self, prog: str, parser: argparse.ArgumentParser | None = None) -> None:
        self.prog = prog
        self.parser = parser
        self.command: str | None = None
        self.args: argparse.Namespace | None = None

    @property
    def who(self) -> str:
        return f"{self.prog} {self.command}" if self.command else self.prog

    def ended(self, e: BaseException) -> int:
        """Print what ``e`` means for the user and return the exit status."""
        if isinstance(e, BrokenPipeError):  # before OSError: the reader left, quietly
            silence_stdout()
            return EXIT_BROKEN_PIPE
        if isinstance(e, KeyboardInterrupt):  # Ctrl-C, or SIGTERM (RunTerminated)
            signum = getattr(e, "signum", signal.SIGINT)
            what = "interrupted" if signum == signal.SIGINT else \
                f"terminated ({signal.Signals(signum).name})"
            say(f"{self.who}: {what}")
            return 128 + signum
        # the classes below are looked up among the loaded modules: nothing is imported
        # here (an interruption during start-up ends at once)
        common = sys.modules.get("hansa_lab.tools.commands.common")
        if common is not None and isinstance(e, common.CliError):
            say(f"{self.who}: error: {e}")
            return EXIT_USAGE
        if common is not None and isinstance(e, common.CliFailure):
            say(f"{self.who}: {e}")
            return int(e.code)
        bad_input = loaded_classes(BAD_INPUT_ERRORS)
        experiment_error = loaded_classes(BAD_INPUT_ERRORS[:1])
        if common is not None and experiment_error and isinstance(e, experiment_error):
            say(f"{self.who}: error: {common.flag_error(e)}")  # names the option
            return EXIT_USAGE
        if bad_input and isinstance(e, bad_input):
            say(f"{self.who}: error: {e}")
            return EXIT_USAGE
        failures = loaded_classes(FAILURE_ERRORS)
        if failures and isinstance(e, failures):
            say(f"{self.who}: {e}")
            return 1
        if isinstance(e, OSError):
            return self._os_error(e)
        if isinstance(e, MemoryError):
            say(f"{self.who}: out of memory")
            return 1
        return self._bug(e)

    def _os_error(self, e: OSError) -> int:
        """A file or folder that could not be read or written: exit 2, naming the option
        whose path it is, when the path is the user's to fix; else 1 (disk full, I/O)."""
        what = e.strerror or str(e)
        path = e.filename
        where = "" if path is None else f"{os.fsdecode(path)}: "
        if path is not None and e.errno in USER_PATH_ERRNOS:
            option = option_of_path(path, self.args, option_names(self.parser, self.command))
            say(f"{self.who}: error: {option + ': ' if option else ''}{where}{what}")
            return EXIT_USAGE
        say(f"{self.who}: {where}{what}")
        return 1

    def _bug(self, e: BaseException) -> int:
        """An exception no one expected: a bug, shown with its traceback and one line."""
        import traceback

        with contextlib.suppress(OSError, ValueError):
            traceback.print_exception(e, file=sys.stderr)
        say(f"{self.who}: internal error (a bug in hansa-lab; the traceback above is for a "
            f"bug report): {type(e).__name__}: {e}")
        return 1


def run_command(start: Callable[[Outcome], int], prog: str = "hansa-lab") -> int:
    """Run ``start`` (which parses the arguments, fills in the outcome's command and
    arguments, and runs the command) inside the boundary; its exit status."""
    outcome = Outcome(prog)
    try:
        with SignalsAsExceptions():
            try:
                code = start(outcome)
                flush_stdout()
                return code
            except SystemExit:  # argparse: --help, --version, a usage error (one line)
                flush_stdout()
                raise
            except BaseException as e:  # the boundary: everything ends here
                return outcome.ended(e)
    except BrokenPipeError:  # while flushing after --help, say
        silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt as e:  # at the very start, or a second Ctrl-C while ending
        return outcome.ended(e)

