"""Exports read back: observations to JSON and Markdown, a chat to Markdown, a persona folder
to a zip. Each file is compared with the store it came from, read independently (SQL on the
plugin's own connection, the folder's bytes); the stores are unchanged by the export; output
is private from the first byte, whole or absent (Cancel, a failing write).
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import sqlite3
import stat
import zipfile
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from alisio_fixtures import add_observation, build_database, copy_database, plugin_connection
from memory_desk.core import StoreError
from memory_desk.core.export import (
    dated_folder,
    export_chat_markdown,
    export_observations_json,
    export_observations_markdown,
    export_persona_zip,
    fenced,
    observation_file_name,
)
from memory_desk.core.observations import ObservationStore
from memory_desk.core.persona import PersonaFolder
from memory_desk.core.progress import Cancelled, Progress
from window_helpers import entry_bytes

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX modes and links")
NOW = 1_790_000_000_000
CONTEXT = (
    "## Your memory\n\n- Use WAL\n\n```python\nprint('```')\n```\n\n````\nfour\n````\r\n"
    "trailing spaces   \n\n  indented\n"
)


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """300 rows as the plugin fills them (pinned, forgotten, revised), plus odd text."""
    path = build_database(tmp_path_factory.mktemp("template") / "memory.sqlite", 300, seed=3)
    add_observation(
        path,
        title="Ünïcode 🎉 title with [brackets] & `ticks`",
        content="**What** emoji 🎉, CRLF\r\nline, ---\n---\nnot a header\n",
        topic_key="ui/unicode-title",
        pinned=True,
        access_count=4,
        last_accessed_at=NOW + 5,
        created_at=NOW,
    )
    add_observation(path, title="学习 日本語", content="**What** no latin letters", deleted_at=NOW)
    return path


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    """A copy of the template for one test (building it takes most of a second)."""
    (tmp_path / "alisio").mkdir()
    return copy_database(template, tmp_path / "alisio" / "memory.sqlite")


@pytest.fixture
def store(db: Path):
    opened = ObservationStore(db)
    yield opened
    opened.close()


def table_rows(path: Path) -> dict[int, dict[str, object]]:
    """Every row with every column, read on the plugin's connection (the oracle)."""
    with plugin_connection(path) as conn:
        conn.row_factory = sqlite3.Row
        return {row["id"]: dict(row) for row in conn.execute("SELECT * FROM observations")}


def table_columns(path: Path) -> list[str]:
    with plugin_connection(path) as conn:
        return [row[1] for row in conn.execute("PRAGMA table_info(observations)")]


def iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def listing(folder: Path) -> dict[str, bytes | None]:
    """Every name in the folder (hidden ones too) with its bytes (None: not a file)."""
    return {p.name: (p.read_bytes() if p.is_file() else None) for p in folder.iterdir()}


def cancel_after(steps: int) -> Progress:
    """A Progress that the person cancels once the job reported ``steps`` times past 0."""
    seen = []

    def listener(done: int, total: int) -> None:
        if done > 0:
            seen.append(done)
        if len(seen) >= steps:
            progress.cancel()

    progress = Progress(listener, interval=0)
    return progress


def read_markdown(path: Path) -> tuple[dict[str, object], str]:
    """Front matter (each value a JSON scalar) and body of an exported observation."""
    text = path.read_bytes().decode("utf-8")  # as written: no newline translation
    assert text.startswith("---\n")
    head, body = text[4:].split("\n---\n\n", 1)
    meta = dict(line.split(": ", 1) for line in head.splitlines())
    assert body.endswith("\n")
    return {key: json.loads(value) for key, value in meta.items()}, body[:-1]


# ----------------------------------------------------------------------------- JSON


def test_json_holds_every_column_of_every_row_forgotten_included(
    store: ObservationStore, db: Path, tmp_path: Path
) -> None:
    reports: list[tuple[int, int]] = []
    target = tmp_path / "out" / "all.json"
    target.parent.mkdir()

    result = export_observations_json(
        store, None, target, Progress(lambda d, t: reports.append((d, t)))
    )

    document = json.loads(target.read_text(encoding="utf-8"))
    rows = table_rows(db)
    header = document["export"]
    assert header["format"] == "memory-desk-observations" and header["version"] == 1
    assert header["database"] == str(db) and header["count"] == len(rows) == result.count
    assert datetime.fromisoformat(header["exported_at"]).tzinfo is not None
    assert header["columns"] == table_columns(db)
    exported = document["observations"]
    assert [item["id"] for item in exported] == sorted(rows)  # by id
    for item in exported:
        row = rows[item["id"]]
        assert {name: item[name] for name in header["columns"]} == row
        assert item["forgotten"] is (row["deleted_at"] is not None)
    assert any(item["forgotten"] for item in exported)
    assert reports[-1] == (len(rows), len(rows))
    assert "🎉" in target.read_text(encoding="utf-8")  # ensure_ascii=False: text as written


def test_json_of_chosen_ids_keeps_their_order_and_leaves_out_deleted_rows(
    store: ObservationStore, db: Path, tmp_path: Path
) -> None:
    target = tmp_path / "some.json"

    result = export_observations_json(store, [7, 3, 999_999, 7, 120], target, Progress())

    document = json.loads(target.read_text(encoding="utf-8"))
    assert [item["id"] for item in document["observations"]] == [7, 3, 120]
    assert document["export"]["count"] == result.count == 3


def test_an_empty_selection_gives_a_valid_document(store: ObservationStore, tmp_path) -> None:
    target = tmp_path / "none.json"
    export_observations_json(store, [], target, Progress())
    document = json.loads(target.read_text(encoding="utf-8"))
    assert document["observations"] == [] and document["export"]["count"] == 0


def test_a_newer_plugins_extra_column_is_exported_too(tmp_path: Path) -> None:
    db = build_database(tmp_path / "memory.sqlite", 3)
    with plugin_connection(db) as conn:
        conn.execute("ALTER TABLE observations ADD COLUMN importance INTEGER DEFAULT 7")
    target = tmp_path / "out.json"
    with_store = ObservationStore(db)
    try:
        export_observations_json(with_store, None, target, Progress())
    finally:
        with_store.close()
    document = json.loads(target.read_text(encoding="utf-8"))
    assert document["export"]["columns"][-1] == "importance"
    assert all(item["importance"] == 7 for item in document["observations"])


# ----------------------------------------------------------------------------- Markdown


def test_markdown_has_one_file_per_observation_whose_metadata_and_body_are_the_row(
    store: ObservationStore, db: Path, tmp_path: Path
) -> None:
    target = tmp_path / "export-folder"

    result = export_observations_markdown(store, None, target, Progress())

    rows = table_rows(db)
    files = sorted(p.name for p in target.iterdir())
    assert "index.md" in files and len(files) == len(rows) + 1 == result.count + 1
    for row in rows.values():
        path = target / observation_file_name(row["id"], row["title"])
        assert path.name.startswith(f"{row['id']}-") and path.name.endswith(".md")
        meta, body = read_markdown(path)
        assert body == row["content"]
        assert meta == {
            "id": row["id"],
            "type": row["type"],
            "title": row["title"],
            "project": row["project"],
            "scope": row["scope"],
            "topic_key": row["topic_key"],
            "session": row["session_id"],
            "tool": row["tool_name"],
            "pinned": bool(row["pinned"]),
            "forgotten": row["deleted_at"] is not None,
            "revision_count": row["revision_count"],
            "duplicate_count": row["duplicate_count"],
            "access_count": row["access_count"],
            "created": iso(row["created_at"]),
            "updated": iso(row["updated_at"]),
            "last_seen": iso(row["last_seen_at"]),
            "last_accessed": iso(row["last_accessed_at"]),
            "forgotten_at": iso(row["deleted_at"]),
        }
    index = (target / "index.md").read_text(encoding="utf-8")
    forgotten = sum(row["deleted_at"] is not None for row in rows.values())
    assert f"Observations: {len(rows)} ({forgotten} forgotten)" in index
    assert index.count("\n- [") == len(rows)


def test_file_names_are_ascii_kebab_titles() -> None:
    assert observation_file_name(12, "Ünïcode 🎉 title with [brackets]!") == (
        "12-unicode-title-with-brackets.md"
    )
    assert observation_file_name(13, "学习 日本語") == "13-observation.md"
    assert len(observation_file_name(14, "word " * 100)) <= len("14-.md") + 60


def test_the_markdown_folder_is_new_and_dated(tmp_path: Path) -> None:
    day = date(2026, 9, 21)
    first = dated_folder(tmp_path, "memory-observations", day)
    assert first.name == "memory-observations-2026-09-21"
    first.mkdir()
    assert dated_folder(tmp_path, "memory-observations", day).name.endswith("-2026-09-21-2")


def test_an_existing_folder_is_never_written_into(store: ObservationStore, tmp_path) -> None:
    target = tmp_path / "taken"
    target.mkdir()
    (target / "mine.txt").write_text("keep")
    with pytest.raises(StoreError, match="already exists"):
        export_observations_markdown(store, None, target, Progress())
    assert listing(target) == {"mine.txt": b"keep"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alisio", "taken"]


# ----------------------------------------------------------------------------- a chat


def add_chat(db: Path, session: str, *, context: str | None) -> None:
    """A chat as the plugin records it: its session row, prompts, loaded context."""
    with plugin_connection(db) as conn:
        conn.execute(
            "INSERT INTO memory_sessions (id, project, directory, started_at, ended_at, summary)"
            " VALUES (?, 'alpha-1a2b3c4d', '/home/carmen/alpha', ?, ?, ?)",
            (session, NOW, NOW + 3_600_000, "## Goal\nShip it\n\n## Next Steps\n- tests"),
        )
        for n, prompt in enumerate(("first ask", "second ```ask```\nwith lines")):
            conn.execute(
                "INSERT INTO user_prompts (session_id, content, project, created_at)"
                " VALUES (?, ?, 'alpha-1a2b3c4d', ?)",
                (session, prompt, NOW + n * 1000),
            )
        if context is not None:
            conn.execute(
                "INSERT INTO injected_context (session_id, project, content, created_at)"
                " VALUES (?, 'alpha-1a2b3c4d', ?, ?)",
                (session, context, NOW),
            )


def fenced_block_after(text: str, heading: str) -> str:
    """The first fenced block after ``heading``, as a Markdown reader takes it."""
    rest = text.split(heading, 1)[1]
    lines = rest.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("```"))
    fence = lines[start][: len(lines[start]) - len(lines[start].lstrip("`"))]
    end = next(i for i in range(start + 1, len(lines)) if lines[i] == fence)
    return "\n".join(lines[start + 1 : end])


def test_a_chat_holds_its_summary_exact_loaded_context_prompts_and_saved_rows(
    tmp_path: Path,
) -> None:
    db = build_database(tmp_path / "memory.sqlite")
    add_chat(db, "chat-1", context=CONTEXT)
    older = add_observation(db, title="Older note", session_id="chat-1", created_at=NOW)
    pinned = add_observation(
        db, title="Pinned note", session_id="chat-1", pinned=True, created_at=NOW - 5
    )
    newer = add_observation(db, title="Newer note", session_id="chat-1", created_at=NOW + 9)
    add_observation(db, title="Forgotten note", session_id="chat-1", deleted_at=NOW + 10)
    add_observation(db, title="Another chat's note", session_id="chat-2")
    target = tmp_path / "chat.md"
    store = ObservationStore(db)
    try:
        result = export_chat_markdown(store, "chat-1", target, Progress())
    finally:
        store.close()

    text = target.read_bytes().decode("utf-8")  # as written: no newline translation
    assert fenced_block_after(text, "## Loaded context") == CONTEXT
    assert "- Project: alpha-1a2b3c4d" in text and "/home/carmen/alpha" in text
    assert f"- Started: {iso(NOW)}" in text and f"- Ended: {iso(NOW + 3_600_000)}" in text
    assert "## Goal\nShip it\n\n## Next Steps\n- tests" in text  # the summary as stored
    prompts = text.split("## Prompts", 1)[1]
    assert fenced_block_after(prompts, "### 1") == "first ask"
    assert fenced_block_after(prompts, "### 2") == "second ```ask```\nwith lines"
    saved = text.split("## Saved in this chat", 1)[1]
    order = [saved.index(f"### {t}") for t in ("Pinned note", "Newer note", "Older note")]
    assert order == sorted(order)  # pinned first, then newest first
    assert "Forgotten note" not in text and "Another chat" not in text
    assert result.count == 3 and {pinned, newer, older}


def test_a_chat_without_schema_101_says_its_context_is_not_recorded(tmp_path: Path) -> None:
    db = build_database(tmp_path / "memory.sqlite", versions=(100,))
    add_chat(db, "chat-1", context=None)
    target = tmp_path / "chat.md"
    store = ObservationStore(db)
    try:
        export_chat_markdown(store, "chat-1", target, Progress())
        with pytest.raises(StoreError, match="no chat “nope”"):
            export_chat_markdown(store, "nope", tmp_path / "nope.md", Progress())
    finally:
        store.close()
    loaded = target.read_text(encoding="utf-8").split("## Loaded context", 1)[1]
    assert "Not recorded" in loaded.split("## Prompts")[0]
    assert not (tmp_path / "nope.md").exists()


def test_a_fence_is_longer_than_any_backtick_run_inside() -> None:
    assert fenced("a ``` b ````` c").startswith("``````text\n")
    assert fenced("plain") == "```text\nplain\n```"


# ----------------------------------------------------------------------------- persona zip


@pytest.fixture
def persona(tmp_path: Path) -> Path:
    """An agent folder with entries and everything that is not one (FORMATS.md part B)."""
    folder = tmp_path / ".miyagi" / "memory"
    folder.mkdir(parents=True)
    (folder / "likes-tea.md").write_bytes(entry_bytes("likes-tea"))
    (folder / "crlf-entry.md").write_bytes(entry_bytes("crlf-entry").replace(b"\n", b"\r\n"))
    (folder / "not-utf8.md").write_bytes(entry_bytes("not-utf8") + b"\xff\xfe bytes")
    (folder / "My Note.md").write_bytes(b"a note the agent never lists\n")
    (folder / ".likes-tea.md.swp").write_bytes(b"swap")
    (folder / "likes-tea.md~").write_bytes(b"backup")
    (folder / "notes.txt").write_bytes(b"not an entry")
    (folder / ".0123456789abcdef.memory-desk.tmp").write_bytes(b"ours")
    (folder / "work").mkdir()
    (folder / "work" / "other-account.md").write_bytes(entry_bytes("other-account"))
    (folder / "archive.md").mkdir()
    outside = tmp_path / "elsewhere.md"
    outside.write_bytes(entry_bytes("elsewhere"))
    if os.name == "posix":
        (folder / "alias.md").symlink_to("likes-tea.md")
        (folder / "outside.md").symlink_to(outside)
    return folder


def snapshot(folder: Path) -> dict[str, tuple[bytes | None, int]]:
    """Names, bytes and modification times of everything in the folder, recursively."""
    return {
        str(p.relative_to(folder)): (
            p.read_bytes() if p.is_file() else None,
            os.lstat(p).st_mtime_ns,
        )
        for p in sorted(folder.rglob("*"))
    }


def test_the_zip_holds_every_entry_file_byte_for_byte_and_nothing_else(
    persona: Path, tmp_path: Path
) -> None:
    before = snapshot(persona)
    target = tmp_path / "memory.zip"

    result = export_persona_zip(PersonaFolder(persona), target, Progress())

    with zipfile.ZipFile(target) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
        modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
    expected = {"likes-tea.md", "crlf-entry.md", "not-utf8.md", "My Note.md"}
    if os.name == "posix":
        expected.add("alias.md")
    assert members == {f"memory/{name}": (persona / name).read_bytes() for name in expected}
    assert all(stat.S_IMODE(mode) == 0o600 for mode in modes.values())
    assert result.count == len(expected)
    skipped = {item.name: item.reason for item in result.skipped}
    assert "not a file" in skipped["archive.md"]
    if os.name == "posix":
        assert "outside the folder" in skipped["outside.md"]
    assert snapshot(persona) == before  # the folder is only read


# ----------------------------------------------------------------------------- private, whole


@posix_only
def test_outputs_are_private_from_the_first_byte_whatever_the_umask(
    store: ObservationStore, persona: Path, tmp_path: Path
) -> None:
    old = os.umask(0)
    try:
        export_observations_json(store, None, tmp_path / "a.json", Progress())
        export_observations_markdown(store, [1, 2], tmp_path / "md", Progress())
        export_persona_zip(persona, tmp_path / "p.zip", Progress())
    finally:
        os.umask(old)
    for file in (tmp_path / "a.json", tmp_path / "p.zip", *(tmp_path / "md").iterdir()):
        assert stat.S_IMODE(os.stat(file).st_mode) == 0o600, file
    assert stat.S_IMODE(os.stat(tmp_path / "md").st_mode) == 0o700


def test_exporting_changes_nothing_in_the_database(
    store: ObservationStore, db: Path, tmp_path: Path
) -> None:
    add_chat(db, "session-1", context=CONTEXT)
    files = [db, db.with_name(db.name + "-wal")]
    before = {p: sha(p) for p in files if p.exists()}
    with plugin_connection(db) as agent:
        version = agent.execute("PRAGMA data_version").fetchone()[0]
        counters = agent.execute(
            "SELECT id, access_count, last_accessed_at, updated_at FROM observations"
        ).fetchall()

        export_observations_json(store, None, tmp_path / "a.json", Progress())
        export_observations_markdown(store, None, tmp_path / "md", Progress())
        export_chat_markdown(store, "session-1", tmp_path / "chat.md", Progress())

        assert agent.execute("PRAGMA data_version").fetchone()[0] == version
        assert (
            agent.execute(
                "SELECT id, access_count, last_accessed_at, updated_at FROM observations"
            ).fetchall()
            == counters
        )
    assert {p: sha(p) for p in files if p.exists()} == before


@pytest.mark.parametrize("kind", ["json", "markdown", "zip"])
def test_cancel_midway_leaves_no_partial_output_and_the_old_file_as_it_was(
    store: ObservationStore, persona: Path, tmp_path: Path, kind: str
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    for n in range(3):
        (persona / f"extra-{n}.md").write_bytes(entry_bytes(f"extra-{n}"))
    target = out / ("folder" if kind == "markdown" else f"old.{kind}")
    if kind != "markdown":
        target.write_bytes(b"an earlier export the person keeps")
    before = listing(out)

    with pytest.raises(Cancelled):
        if kind == "json":
            export_observations_json(store, None, target, cancel_after(1))
        elif kind == "markdown":
            export_observations_markdown(store, None, target, cancel_after(1))
        else:
            export_persona_zip(persona, target, cancel_after(2))

    assert listing(out) == before


def test_a_target_that_is_a_folder_gives_a_message_and_leaves_nothing(
    store: ObservationStore, persona: Path, tmp_path: Path
) -> None:
    target = tmp_path / "a-folder.json"
    target.mkdir()
    (target / "inside").write_text("x")
    for run in (
        lambda: export_observations_json(store, None, target, Progress()),
        lambda: export_persona_zip(persona, target, Progress()),
    ):
        with pytest.raises(StoreError, match="is a folder: choose a file name"):
            run()
    assert listing(target) == {"inside": b"x"}
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".memory-desk.tmp")]


def test_a_missing_folder_gives_a_message(store: ObservationStore, tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="its folder does not exist"):
        export_observations_json(store, None, tmp_path / "gone" / "a.json", Progress())


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes everywhere")
def test_a_read_only_folder_gives_a_message_and_leaves_nothing(
    store: ObservationStore, tmp_path: Path
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(StoreError, match="may not write there"):
            export_observations_json(store, None, locked / "a.json", Progress())
        with pytest.raises(StoreError, match="may not write there"):
            export_observations_markdown(store, None, locked / "md", Progress())
    finally:
        locked.chmod(0o700)
    assert list(locked.iterdir()) == []


def test_a_full_disk_gives_a_message_and_keeps_the_old_file(
    store: ObservationStore, small_disk: Path
) -> None:
    target = small_disk / "all.json"
    target.write_bytes(b"an earlier export")
    filler = small_disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    os.truncate(filler, os.path.getsize(filler) - 64 * 1024)  # room to start, not to finish

    with pytest.raises(StoreError, match="the disk is full"):
        export_observations_json(store, None, target, Progress())
    with pytest.raises(StoreError, match="the disk is full"):
        export_observations_markdown(store, None, small_disk / "md", Progress())

    assert sorted(p.name for p in small_disk.iterdir()) == ["all.json", "filler"]
    assert target.read_bytes() == b"an earlier export"


def test_zip_members_read_as_the_files_in_a_zip_reader(persona: Path, tmp_path: Path) -> None:
    """The zip is a plain one any reader opens: tested by reading it from bytes."""
    target = tmp_path / "p.zip"
    export_persona_zip(persona, target, Progress())
    with zipfile.ZipFile(io.BytesIO(target.read_bytes())) as archive:
        assert archive.testzip() is None


def test_a_row_the_agent_deletes_during_the_export_is_left_out_and_counted_right(
    tmp_path: Path,
) -> None:
    db = build_database(tmp_path / "memory.sqlite", 1200, seed=5)
    deleted: list[int] = []

    def agent_deletes_a_later_row(done: int, total: int) -> None:
        if done == 1 and not deleted:  # the first chunk is read; the row is in a later one
            with plugin_connection(db) as agent:
                agent.execute("DELETE FROM observations WHERE id = 1100")
            deleted.append(1100)

    target = tmp_path / "all.json"
    store = ObservationStore(db)
    try:
        result = export_observations_json(
            store, None, target, Progress(agent_deletes_a_later_row, interval=0)
        )
    finally:
        store.close()
    document = json.loads(target.read_text(encoding="utf-8"))
    ids = [item["id"] for item in document["observations"]]
    assert deleted and 1100 not in ids and len(ids) == 1199
    assert document["export"]["count"] == result.count == 1199


def test_bytes_stored_in_a_text_column_are_kept_as_base64(tmp_path: Path) -> None:
    db = build_database(tmp_path / "memory.sqlite", 2)
    with plugin_connection(db) as conn:
        conn.execute("UPDATE observations SET tool_name = x'00ff10' WHERE id = 1")
    target = tmp_path / "all.json"
    store = ObservationStore(db)
    try:
        export_observations_json(store, [1], target, Progress())
    finally:
        store.close()
    item = json.loads(target.read_text(encoding="utf-8"))["observations"][0]
    assert item["tool_name"] == {"base64": "AP8Q"}
