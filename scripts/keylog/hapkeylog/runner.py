"""Turning an exporter on, and running a user's program unchanged with it on.

    python -m hapkeylog.<stack> --keylog FILE SCRIPT [ARG ...]
    python -m hapkeylog.<stack> --keylog FILE -m MODULE [ARG ...]
    python -m hapkeylog.<stack> --keylog FILE CONSOLE-SCRIPT [ARG ...]    (e.g. aiohomekitctl)

``HAPKEYLOGFILE`` names the file when ``--keylog`` is not given; with neither, nothing is written.
The program then runs as ``python SCRIPT`` / ``python -m MODULE`` would run it: same ``sys.argv``,
``__name__ == "__main__"``, its exit status.
"""

from __future__ import annotations

import os
import runpy
import sys
import threading
from importlib import metadata
from typing import Callable, Sequence

from .writer import KeyLog, keylog_path_from_environment

Installer = Callable[[KeyLog], list[str]]

_lock = threading.Lock()
_keylogs: dict[str, KeyLog] = {}
_installed: set[str] = set()
# Set while a runner is starting, so that importing an exporter module does not also act on
# HAPKEYLOGFILE (the runner's --keylog wins).
started_by_runner = False


def activate(stack: str, install: Installer, path: str | None) -> KeyLog | None:
    """Open ``path`` (shared by every exporter of the process) and install ``stack``'s hooks once."""
    if not path:
        return None
    with _lock:
        key = os.path.abspath(path)
        keylog = _keylogs.get(key)
        if keylog is None:
            keylog = _keylogs[key] = KeyLog(path)
        if stack in _installed or not keylog.active:
            return keylog
        _installed.add(stack)
    try:
        problems = install(keylog)
    except Exception as error:  # noqa: BLE001 - the stack is missing or unusable; it goes on without us
        keylog.fail(f"cannot hook {stack}: {type(error).__name__}: {error}")
        return keylog
    if problems:
        keylog.warn(f"{stack}: not hooked, so not logged: " + "; ".join(problems))
    return keylog


def activate_from_environment(stack: str, install: Installer) -> KeyLog | None:
    """The one-import-line form: act on HAPKEYLOGFILE when it is set, do nothing otherwise."""
    if started_by_runner:
        return None
    return activate(stack, install, keylog_path_from_environment())


def main(stack: str, install: Installer, argv: Sequence[str] | None = None) -> None:
    global started_by_runner
    started_by_runner = True
    arguments = list(sys.argv[1:] if argv is None else argv)
    program = f"python -m hapkeylog.{stack}"
    path: str | None = None
    module: str | None = None
    while arguments:
        argument = arguments[0]
        if argument in ("-h", "--help"):
            print(__doc__.replace("<stack>", stack).strip())
            return
        if argument == "--keylog" and len(arguments) > 1:
            path, arguments = arguments[1], arguments[2:]
        elif argument.startswith("--keylog="):
            path, arguments = argument.split("=", 1)[1], arguments[1:]
        elif argument == "-m" and len(arguments) > 1:
            module, arguments = arguments[1], arguments[2:]
            break
        elif argument.startswith("-"):
            sys.exit(f"{program}: unknown option {argument!r} (options go before the program; --help)")
        else:
            break
    if module is None and not arguments:
        sys.exit(f"{program}: name the program to run (--help)")
    if path is None:
        path = keylog_path_from_environment()
    if path is None:
        print(f"{program}: no key log named (--keylog FILE or HAPKEYLOGFILE): nothing is written", file=sys.stderr)
    activate(stack, install, path)
    run_program(module, arguments)


def run_program(module: str | None, arguments: list[str]) -> None:
    """Run a module, a script file or an installed console script as ``python`` would."""
    if module is not None:
        sys.argv = [module, *arguments]
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        return
    target, rest = arguments[0], arguments[1:]
    if os.path.isfile(target):
        sys.argv = [target, *rest]
        sys.path.insert(0, os.path.dirname(os.path.abspath(target)))
        runpy.run_path(target, run_name="__main__")
        return
    entry_points = metadata.entry_points(group="console_scripts", name=target)
    for entry_point in entry_points:
        sys.argv = [target, *rest]
        sys.exit(entry_point.load()())
    sys.exit(f"hapkeylog: {target!r} is neither a file nor an installed console script")
