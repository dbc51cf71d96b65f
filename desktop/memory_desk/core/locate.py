"""Find the agents' memory stores on this computer, the way the agents themselves do.

Memory Desk opens on a person's memories without being told where they are, so this
module repeats each agent's own path rules (FORMATS.md, "Where it lives"):

- Alisio resolves its state and config homes itself, the same on every OS (it does not
  use the macOS/Windows conventions), and its global config may move the memory database
  or turn the plugin off. :func:`locate_alisio` reports what it found, including a broken
  config, and never raises: a person with a typo in ``config.json`` still gets a window.
- agent-kit agents keep their persona memory in ``~/.<agent>/memory`` (or per account in
  ``~/.<agent>/memory/<account>``). :func:`locate_persona_folders` lists the ones that hold
  entries, plus the folders the person added by hand.

Pure Python, no Qt; only reads.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from memory_desk.core.alisio import SCOPES
from memory_desk.core.kinds import SourceKind, StoreKind

DB_FILE_NAME = "memory.sqlite"
CONFIG_FILE_NAME = "config.json"

# The plugin's settings as documented for @alisio/plugin-memory, with their defaults.
DEFAULT_SETTINGS: Mapping[str, Any] = {
    "injectBudgetTokens": 1500,
    "recallLimit": 8,
    "autoSummary": True,
    "defaultScope": "project",
}
_INT_RANGES = {"injectBudgetTokens": (100, 20_000), "recallLimit": (0, 20)}


@dataclass(frozen=True)
class AlisioLocation:
    """Where Alisio's memory database is, and how the plugin is configured.

    ``db_path`` is where the plugin reads and writes (it may not exist yet: ``exists``).
    ``config_path`` is the global config file when there is one, even if it is broken;
    ``problems`` says, in words a person can act on, what could not be read and what
    was assumed instead. ``configured`` names the settings the config sets explicitly
    (the others show the plugin's defaults).
    """

    db_path: Path
    exists: bool
    enabled: bool
    config_path: Path | None
    settings: dict[str, Any]
    problems: tuple[str, ...] = ()
    state_home: Path | None = None
    db_path_from_config: bool = False
    configured: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class PersonaLocation:
    """One agent-kit persona memory folder, labelled for the sidebar.

    ``added`` is True for folders the person added by hand (they are listed even when
    they do not exist or hold no entries yet, so the person can see what happened).
    """

    path: Path
    agent: str
    account: str | None
    label: str
    added: bool = False


# -- Alisio -------------------------------------------------------------------------------


def alisio_state_home(env: Mapping[str, str] = os.environ, home: Path | None = None) -> Path:
    """``$ALISIO_STATE_HOME``, else ``$XDG_STATE_HOME/alisio``, else ``~/.local/state/alisio``."""
    return _home_from_env(env, "ALISIO_STATE_HOME", "XDG_STATE_HOME", (".local", "state"), home)


def alisio_config_home(env: Mapping[str, str] = os.environ, home: Path | None = None) -> Path:
    """``$ALISIO_CONFIG_HOME``, else ``$XDG_CONFIG_HOME/alisio``, else ``~/.config/alisio``."""
    return _home_from_env(env, "ALISIO_CONFIG_HOME", "XDG_CONFIG_HOME", (".config",), home)


def locate_alisio(env: Mapping[str, str] = os.environ, home: Path | None = None) -> AlisioLocation:
    """Resolve Alisio's memory database and plugin settings as Alisio itself would.

    A workspace's own ``.alisio/config.json`` can move the database for that workspace
    only; Memory Desk is not started in a workspace, so only the global config counts.
    """
    state_home = alisio_state_home(env, home)
    config_file = alisio_config_home(env, home) / CONFIG_FILE_NAME
    problems: list[str] = []
    memory, config_path = _read_memory_section(config_file, problems)

    db_path = state_home / DB_FILE_NAME
    from_config = False
    if "dbPath" in memory:
        configured_path = memory["dbPath"]
        if isinstance(configured_path, str) and configured_path.strip():
            db_path = _absolute(config_file.parent / configured_path)
            from_config = True
        else:
            problems.append(
                f"builtinPlugins.memory.dbPath in {config_file} is not a path"
                f" ({configured_path!r}); using {db_path}."
            )

    enabled = _read_enabled(memory, config_file, problems)
    settings, configured = _read_settings(memory, config_file, problems)
    exists = db_path.is_file()
    if db_path.exists() and not exists:
        problems.append(f"{db_path} exists but is not a file; Alisio cannot use it.")
    return AlisioLocation(
        db_path=db_path,
        exists=exists,
        enabled=enabled,
        config_path=config_path,
        settings=settings,
        problems=tuple(problems),
        state_home=state_home,
        db_path_from_config=from_config,
        configured=configured,
    )


def _home_from_env(
    env: Mapping[str, str],
    own_var: str,
    xdg_var: str,
    fallback: tuple[str, ...],
    home: Path | None,
) -> Path:
    # An empty variable counts as unset, as in Node's `env.X || default`.
    if env.get(own_var):
        return _absolute(Path(env[own_var]))
    if env.get(xdg_var):
        return _absolute(Path(env[xdg_var])) / "alisio"
    return _user_home(env, home).joinpath(*fallback, "alisio")


def _user_home(env: Mapping[str, str], home: Path | None) -> Path:
    if home is not None:
        return home
    if os.name != "nt" and env.get("HOME"):
        return Path(env["HOME"])
    return Path.home()


def _absolute(path: Path) -> Path:
    """Make a path absolute without resolving links (Node's ``path.resolve`` does the same)."""
    return Path(os.path.normpath(os.path.abspath(path)))


def _read_memory_section(config_file: Path, problems: list[str]) -> tuple[dict, Path | None]:
    """The ``builtinPlugins.memory`` object of the config, ``{}`` when absent or unreadable."""
    try:
        text = config_file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except IsADirectoryError:
        problems.append(f"{config_file} is a folder, not Alisio's config file; using defaults.")
        return {}, config_file
    except (OSError, UnicodeDecodeError) as error:
        problems.append(
            f"Cannot read Alisio's config {config_file}: {_reason(error)}; using defaults."
        )
        return {}, config_file
    try:
        config = json.loads(text)
    except json.JSONDecodeError as error:
        problems.append(
            f"Alisio's config {config_file} is not valid JSON (line {error.lineno},"
            f" column {error.colno}: {error.msg}); using defaults."
        )
        return {}, config_file
    memory: Any = config
    for key in ("builtinPlugins", "memory"):
        if not isinstance(memory, dict):
            problems.append(
                f"Alisio's config {config_file} has an unexpected shape; using defaults."
            )
            return {}, config_file
        memory = memory.get(key, {})
    if not isinstance(memory, dict):
        problems.append(f"builtinPlugins.memory in {config_file} is not an object; using defaults.")
        return {}, config_file
    return memory, config_file


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error)


def _read_enabled(memory: dict, config_file: Path, problems: list[str]) -> bool:
    enabled = memory.get("enabled", True)
    if isinstance(enabled, bool):
        return enabled
    problems.append(
        f"builtinPlugins.memory.enabled in {config_file} is {enabled!r}, not true or false;"
        " assuming the plugin is on."
    )
    return True


def _read_settings(
    memory: dict, config_file: Path, problems: list[str]
) -> tuple[dict[str, Any], frozenset[str]]:
    settings = dict(DEFAULT_SETTINGS)
    configured: set[str] = set()
    for name, default in DEFAULT_SETTINGS.items():
        if name not in memory:
            continue
        value = memory[name]
        if _is_valid_setting(name, value):
            settings[name] = value
            configured.add(name)
        else:
            problems.append(
                f"builtinPlugins.memory.{name} in {config_file} is {value!r}"
                f" ({_expected(name)}); showing the default, {default!r}."
            )
    return settings, frozenset(configured)


def _is_valid_setting(name: str, value: Any) -> bool:
    if name in _INT_RANGES:
        low, high = _INT_RANGES[name]
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    if name == "autoSummary":
        return isinstance(value, bool)
    return value in SCOPES


def _expected(name: str) -> str:
    if name in _INT_RANGES:
        low, high = _INT_RANGES[name]
        return f"expected a whole number from {low} to {high}"
    if name == "autoSummary":
        return "expected true or false"
    return "expected " + " or ".join(repr(scope) for scope in SCOPES)


# -- Persona folders ----------------------------------------------------------------------


def locate_persona_folders(
    home: Path | None = None, extra: Iterable[str | os.PathLike[str]] = ()
) -> list[PersonaLocation]:
    """Every ``~/.<agent>/memory`` (and account subfolder) holding entries, then ``extra``.

    Found folders come sorted by agent, the agent's own folder before its accounts;
    the added folders follow in the order given. A folder is listed once.
    """
    home = Path.home() if home is None else home
    found = [location for agent_dir in _agent_dirs(home) for location in _agent_folders(agent_dir)]
    seen = {_identity(location.path) for location in found}
    for folder in extra:
        path = _absolute(Path(folder).expanduser())
        if _identity(path) not in seen:
            seen.add(_identity(path))
            found.append(describe_folder(path))
    return found


def has_entry_files(folder: Path) -> bool:
    """True if the folder holds at least one ``*.md`` file that is not hidden.

    This is only a cheap "is there anything here" test for discovery (it stops at the first
    entry, and scandir knows file types without a stat each); reading the entries and
    judging them is ``memory_desk.core.persona``'s job.
    """
    try:
        with os.scandir(folder) as children:
            return any(_looks_like_entry(child) for child in children)
    except OSError:
        return False


def _looks_like_entry(entry: os.DirEntry[str]) -> bool:
    name = entry.name
    if name.startswith(".") or not name.endswith(".md"):
        return False
    try:
        return entry.is_file()
    except OSError:
        return False


def _agent_dirs(home: Path) -> list[Path]:
    try:
        children = sorted(home.iterdir(), key=lambda path: path.name)
    except OSError:
        return []
    return [
        child
        for child in children
        if child.name.startswith(".") and len(child.name) > 1 and _is_dir(child / "memory")
    ]


def _agent_folders(agent_dir: Path) -> list[PersonaLocation]:
    memory = agent_dir / "memory"
    folders = []
    if has_entry_files(memory):
        folders.append(replace(describe_folder(memory), added=False))
    for account_dir in _account_dirs(memory):
        if has_entry_files(account_dir):
            folders.append(replace(describe_folder(account_dir), added=False))
    return folders


def _account_dirs(memory: Path) -> list[Path]:
    """Subfolders of a memory folder: each may be an account's memory. A folder of thousands
    of entries is listed once with scandir, without a stat per file."""
    try:
        with os.scandir(memory) as children:
            names = sorted(
                child.name
                for child in children
                if not child.name.startswith(".") and _entry_is_dir(child)
            )
    except OSError:
        return []
    return [memory / name for name in names]


def _entry_is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def describe_folder(path: Path) -> PersonaLocation:
    """Label a folder by the agent that keeps it, when it sits where an agent keeps memory:
    ``miyagi`` for ``~/.miyagi/memory`` or ``<agent-kit>/agents/miyagi/memory``, ``miyagi
    (work)`` for an account's subfolder of either; any other folder by its own name.

    The one place a persona folder's name for people is made: the sidebar, the review, the
    journal's record of who changed an entry and the window's title all ask here, so a
    folder is called the same whichever way it was opened (found, added, given on the
    command line) and after every restart."""
    keeper = agent_of_folder(path)
    if keeper is None:
        return PersonaLocation(path, path.name, None, path.name, added=True)
    agent, account = keeper
    label = agent if account is None else f"{agent} ({account})"
    return PersonaLocation(path, agent, account, label, added=True)


def agent_of_folder(path: Path) -> tuple[str, str | None] | None:
    """(agent, account) of a folder where an agent keeps memory (account None for the
    agent's own ``memory`` folder), else None."""
    agent = _agent_keeping(path)
    if agent is not None:
        return agent, None
    agent = _agent_keeping(path.parent)
    if agent is not None and path.name:
        return agent, path.name
    return None


def _agent_keeping(memory: Path) -> str | None:
    """The agent whose ``memory`` folder this is (``.<agent>/memory`` in a home, or
    ``agents/<agent>/memory`` in an agent-kit tree), else None."""
    if memory.name != "memory":
        return None
    holder = memory.parent.name
    if holder.startswith(".") and len(holder) > 1:
        return holder[1:]
    if holder and not holder.startswith(".") and memory.parent.parent.name == "agents":
        return holder
    return None


def folder_label(path: str | os.PathLike[str]) -> str:
    """A persona folder's name for people (:func:`describe_folder`), for a path as given."""
    return describe_folder(_absolute(Path(path).expanduser())).label


def store_label(kind: SourceKind | StoreKind, path: str | os.PathLike[str]) -> str:
    """A store's name for people: a persona folder's agent (:func:`folder_label`); a
    database's file name, with its folder when it is the usual ``memory.sqlite``. ``kind``
    as the window or as the journal names it."""
    if kind in (SourceKind.PERSONA, StoreKind.PERSONA):
        return folder_label(path)
    file = Path(path)
    return file.name if file.name != DB_FILE_NAME else f"{file.parent.name}/{file.name}"


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _identity(path: Path) -> str:
    try:
        return os.path.normcase(os.path.realpath(path))
    except OSError:
        return os.path.normcase(os.fspath(path))
