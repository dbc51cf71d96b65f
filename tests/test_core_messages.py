"""The core's messages stay translatable: each is a ``Msg`` built from a literal template.

The core is pure Python, yet its errors, problems and warnings reach the window, which shows
them in the person's language (``i18n.shown``). That works only when a message keeps its
context, its template (a string literal of a ``msg(...)`` call, which the catalogue tool
collects) and its values apart, all the way from where it is made to where it is shown:
through ``raise``, ``except``, pickling, and messages made of other messages. These tests
make each family of messages with the real core on real files and databases, check that its
English text is what it always was and that it can be translated, and scan the core's source
for errors built from text that no catalogue could hold.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import pickle
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator

from alisio_fixtures import plugin_connection
from memory_desk.core import StoreError, TopicConflict, alisio, wording
from memory_desk.core.errors import ConflictError, StoreDamaged
from memory_desk.core.messages import Msg, msg
from memory_desk.core.observations import ObservationStore, WriteCancelled, WriteWait
from memory_desk.core.persona import PersonaFolder, listing_failure, validate_name
from memory_desk.ui import i18n

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "desktop" / "memory_desk" / "core"
KEY = "auth/token-refresh"
PROJECT = "alpha-1a2b3c4d"

# Raises that keep the agents' own English on purpose: the plugin stand-in copies the
# plugin's error word for word (it is what the agent answers, not Memory Desk's sentence).
AGENT_WORDING = {("alisio.py", "Memory title and content are required")}


# ------------------------------------------------------------------------------ the source


def msg_calls(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "msg":
            yield node


def literal_templates() -> dict[tuple[str, str], str]:
    """Every ``msg("Context", "template", ...)`` of the core: what a catalogue can hold."""
    found = {}
    for path in sorted(CORE.rglob("*.py")):
        for call in msg_calls(ast.parse(path.read_text("utf-8"))):
            context, template = (arg.value for arg in call.args[:2])
            found[(context, template)] = path.name
    return found


def store_error_names(paths: list[Path]) -> set[str]:
    """StoreError and every class of the core that derives from it, by name."""
    bases: dict[str, set[str]] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = {b.id for b in node.bases if isinstance(b, ast.Name)}
    names = {"StoreError"}
    while True:
        more = {name for name, parents in bases.items() if parents & names} - names
        if not more:
            return names
        names |= more


def text_built_errors(source: str, error_names: set[str], file_name: str = "") -> list[str]:
    """Every construction of a store error whose message is plain text (a literal, an
    f-string, a concatenation, ``.format``, ``join`` or ``str()``) instead of a ``msg(...)``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in error_names
        ):
            continue
        if not node.args:
            found.append(f"{file_name}:{node.lineno}: {node.func.id}() without a message")
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and (file_name, first.value) in AGENT_WORDING:
            continue
        plain = (
            isinstance(first, ast.JoinedStr | ast.BinOp)
            or (isinstance(first, ast.Constant) and isinstance(first.value, str))
            or (
                isinstance(first, ast.Call)
                and (
                    (
                        isinstance(first.func, ast.Attribute)
                        and first.func.attr in {"format", "join"}
                    )
                    or (isinstance(first.func, ast.Name) and first.func.id == "str")
                )
            )
        )
        if plain:
            found.append(f"{file_name}:{node.lineno}: {ast.unparse(node)[:90]}")
    return found


def test_no_store_error_of_the_core_is_built_from_plain_text() -> None:
    paths = sorted(CORE.rglob("*.py"))
    names = store_error_names(paths)
    assert {"ConflictError", "StoreDamaged", "TopicConflict", "WriteCancelled"} <= names
    found = []
    for path in paths:
        found += text_built_errors(path.read_text("utf-8"), names, path.name)
    assert found == []


@pytest.mark.parametrize(
    "source",
    [
        'raise StoreError(f"Could not read {path}")',
        'raise ConflictError("It changed.")',
        'error = StoreError("Could not " + action)',
        'raise StoreError("{} is gone".format(name))',
        'raise StoreError(" ".join(parts))',
        "raise StoreError(str(exc))",
        "raise StoreError()",
    ],
)
def test_the_scan_finds_an_error_built_from_plain_text(source: str) -> None:
    assert text_built_errors(source, {"StoreError", "ConflictError"}) != []


def test_the_scan_accepts_messages_and_values_that_hold_them() -> None:
    source = (
        'raise StoreError(msg("Persona", "Gone {name}.", name=name))\n'
        "raise StoreError(problem)\n"
        "raise StoreError(could_not_save(name, exc))\n"
    )
    assert text_built_errors(source, {"StoreError"}) == []


def test_every_message_of_the_core_has_a_literal_context_and_template() -> None:
    """The catalogue tool reads both arguments from the source: anything else is lost."""
    wrong = []
    for path in sorted(CORE.rglob("*.py")):
        for call in msg_calls(ast.parse(path.read_text("utf-8"))):
            literal = len(call.args) == 2 and all(
                isinstance(arg, ast.Constant) and isinstance(arg.value, str) for arg in call.args
            )
            if not literal:
                wrong.append(f"{path.name}:{call.lineno}: {ast.unparse(call)[:80]}")
    assert wrong == []
    assert len(literal_templates()) > 150


# ---------------------------------------------------------------------- translatable


TEMPLATES = literal_templates()


def assert_translatable(message: object, english: str | None = None) -> None:
    """``message`` is a Msg whose template is a literal of the core (so it holds no value
    formatted into it) and whose English text is its template filled with its values; the
    same for every message among its values. ``english``: the text it must read."""
    assert isinstance(message, Msg), f"plain text, not a Msg: {message!r}"
    assert (message.context, message.template) in TEMPLATES, message.template
    assert str(message) == message.template.format(**message.values)
    for value in message.values.values():
        if isinstance(value, Msg):
            assert_translatable(value)
        else:
            assert isinstance(value, str | int | float), f"{value!r} in {message.template!r}"
    if english is not None:
        assert str(message) == english


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "memory.sqlite"
    alisio.create_database(path)
    return path


def agent_save(db: Path, title: str, **options: object) -> int:
    """A save by the plugin's own rules, a minute after the previous one."""
    agent_save.clock += 60_000
    with plugin_connection(db) as conn:
        return alisio.save_observation(
            conn,
            title=title,
            content=f"**What** {title}",
            type="decision",
            project=PROJECT,
            now=agent_save.clock,
            **options,
        ).id


agent_save.clock = 1_790_000_000_000


def topic_conflict(db: Path) -> tuple[TopicConflict, int, int]:
    """The clash a person meets: the agent saved on a topic after its old row was forgotten."""
    old = agent_save(db, "Old refresh rule", topic_key=KEY)
    with ObservationStore(db) as store:
        store.forget([old])
    new = agent_save(db, "New refresh rule", topic_key=KEY)
    with ObservationStore(db) as store, pytest.raises(TopicConflict) as caught:
        store.restore([old])
    return caught.value, old, new


def test_a_topic_conflict_is_one_translatable_message(db: Path) -> None:
    conflict, old, new = topic_conflict(db)
    assert_translatable(
        conflict.args[0],
        f"Restoring #{old} would give the topic “{KEY}” two live observations (#{old} and"
        f" #{new}); the agent's next save on it would rewrite only the newest. Choose what"
        f" happens to #{new}.",
    )
    assert conflict.args[0].values["subject"].template == "Restoring #{id}"


def test_a_store_error_survives_raise_catch_and_pickling(db: Path) -> None:
    conflict, old, new = topic_conflict(db)
    again = pickle.loads(pickle.dumps(conflict))
    assert type(again) is TopicConflict and again.clashes == conflict.clashes
    assert_translatable(again.args[0], str(conflict))
    assert again.args[0].values["count"].template == "two"

    damaged = StoreDamaged(msg("Database", "its cache folder"), index_only=True)
    copied = pickle.loads(pickle.dumps(damaged))
    assert copied.index_only and isinstance(copied.args[0], Msg)

    with pytest.raises(StoreError) as caught:
        ObservationStore(db.parent / "nowhere.sqlite")
    assert_translatable(
        caught.value.args[0], f"There is no file at {db.parent / 'nowhere.sqlite'}; check the path"
    )
    assert str(caught.value) == str(caught.value.args[0])


def test_messages_made_of_messages_read_as_plain_joins_and_stay_shallow() -> None:
    parts = [msg("Topics", "two"), "#3", msg("Topics", "the new observation")]
    assert wording.sentences(parts) == "two #3 the new observation"
    assert wording.and_list(parts) == "two, #3 and the new observation"
    assert wording.lines(parts) == "two\n#3\nthe new observation"
    assert wording.semicolons(["a", "b"]) == "a; b" and not isinstance(
        wording.semicolons(["a", "b"]), Msg
    )
    for joined in (wording.sentences(parts), wording.and_list(parts), wording.lines(parts)):
        assert_translatable(joined)

    many = wording.lines([msg("Topics", "two")] * 1000)
    assert str(many) == "\n".join(["two"] * 1000)

    def depth(message: object) -> int:
        if not isinstance(message, Msg):
            return 0
        return 1 + max((depth(v) for v in message.values.values()), default=0)

    assert depth(many) <= 12  # a balanced tree: shown() never recurses a thousand levels


def test_store_errors_of_each_kind_are_translatable(db: Path) -> None:
    row = agent_save(db, "A rule")
    with ObservationStore(db) as store:
        with pytest.raises(StoreError) as empty_title:
            store.edit(row, title="   ")
        assert_translatable(
            empty_title.value.args[0],
            "An observation needs a title (the agent's plugin refuses an empty one); type one"
            " before saving",
        )
        seen = store.get(row)
        with plugin_connection(db) as conn:
            conn.execute("UPDATE observations SET title = 'Rewritten' WHERE id = ?", (row,))
        with pytest.raises(ConflictError) as conflict:
            store.edit(row, title="Mine", expected=seen)
        assert_translatable(
            conflict.value.args[0],
            f"Observation #{row} was changed by the agent since you opened it; reload it and"
            " make your edit again",
        )
        with pytest.raises(StoreError) as bad_type:
            store.edit(row, type="mood")
        assert_translatable(bad_type.value.args[0])
        assert bad_type.value.args[0].values["type"] == "mood"


def test_a_sqlite_error_becomes_a_translatable_sentence_with_sqlites_words_as_a_value(
    tmp_path: Path,
) -> None:
    not_a_db = tmp_path / "memory.sqlite"
    not_a_db.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError) as caught:
        ObservationStore(not_a_db)
    assert_translatable(
        caught.value.args[0], f"{not_a_db} is not an SQLite database; choose Alisio's memory.sqlite"
    )


def test_warnings_at_open_are_translatable(db: Path) -> None:
    with plugin_connection(db) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute("DROP TABLE schema_migrations")
    with ObservationStore(db) as store:
        assert len(store.warnings) == 2
        for warning in store.warnings:
            assert_translatable(warning)
        assert store.warnings[1] == (
            "the database is in delete journal mode, not the plugin's WAL: while the agent runs,"
            " Memory Desk's writes may make it wait"
        )


def test_a_health_finding_and_the_writes_it_refuses_are_translatable(db: Path) -> None:
    for title in ("One", "Two", "Three"):
        agent_save(db, title)
    with plugin_connection(db) as conn:
        conn.execute("DROP TRIGGER observations_au")
        conn.execute("UPDATE observations SET content = 'rewritten behind the index' WHERE id = 2")
    with ObservationStore(db) as store:
        message = store.check_index()
        assert_translatable(message)
        assert message.template.startswith("{broken_index}. Until then")
        assert str(db) in message and "rebuild" in message
        assert_translatable(store.read_only_reason, message)
        with pytest.raises(StoreDamaged) as refused:
            store.pin([1])
        assert_translatable(
            refused.value.args[0],
            f"Could not pin: Memory Desk does not write to a damaged database. {message}",
        )
        assert refused.value.index_only


def test_a_cancelled_write_is_translatable(db: Path) -> None:
    row = agent_save(db, "A rule")
    wait = WriteWait()
    assert wait.cancel()
    with ObservationStore(db) as store, wait, pytest.raises(WriteCancelled) as caught:
        store.pin([row])
    assert_translatable(
        caught.value.args[0], "Nothing was written: you cancelled while the agent wrote"
    )


def test_a_replaced_file_is_said_in_a_translatable_sentence(db: Path, tmp_path: Path) -> None:
    with ObservationStore(db) as store:
        store.count()
        os.replace(db, tmp_path / "moved.sqlite")
        assert_translatable(store.replaced())
        assert store.replaced().startswith(f"{db} is no longer there")


# ------------------------------------------------------------------------------ persona


def write_entry(folder: Path, name: str, text: str) -> None:
    (folder / f"{name}.md").write_text(text, encoding="utf-8")


def test_persona_problems_and_their_fixes_are_translatable(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    write_entry(
        folder,
        "prefers-tea",
        "---\nname: prefers-tea\ntype: mood\nupdated: 2026-10-07T13:15:05.678Z\n---\nTea, always.\n",
    )
    write_entry(folder, "Odd Name", "---\ndescription: odd\ntype: user\n---\nx\n")
    (entry, odd) = PersonaFolder(folder, trash=tmp_path / "trash").entries()
    messages = {p.code: p.message for p in (*entry.problems, *odd.problems)}
    for message in messages.values():
        assert_translatable(message)
    assert messages["type"] == (
        "The type “mood” is neither user nor feedback, so the agent reads it as user."
    )
    assert messages["description"].template.endswith("there is no such entry.)")
    assert messages["name-not-kebab"].values["name"] == "Odd Name"
    from memory_desk.core.persona import FIX_LABELS

    for label in FIX_LABELS.values():
        assert_translatable(label)
    assert_translatable(validate_name("Not Kebab"))
    assert_translatable(
        validate_name("x" * 300), "The name is 300 characters long; keep it to 252."
    )


def test_persona_store_errors_are_translatable(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    store = PersonaFolder(folder, trash=tmp_path / "trash")
    entry = store.create(name="prefers-tea", type="user", description="Tea", body="Tea.")
    with pytest.raises(ConflictError) as exists:
        store.create(name="prefers-tea", type="user", description="Tea", body="Tea.")
    assert_translatable(exists.value.args[0], "An entry named “prefers-tea” already exists.")
    write_entry(folder, "prefers-tea", "---\ndescription: changed\n---\nby the agent\n")
    with pytest.raises(ConflictError) as changed:
        store.save(entry)
    assert_translatable(changed.value.args[0])
    with pytest.raises(StoreError) as missing:
        PersonaFolder(tmp_path / "nowhere")
    assert_translatable(missing.value.args[0])
    with pytest.raises(StoreError) as no_description:
        store.create(name="other", type="user", description=" \n ", body="x")
    assert_translatable(no_description.value.args[0])


def test_folder_problems_and_the_missing_prompt_section_are_translatable(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "archive.md").mkdir()
    problems = PersonaFolder(folder, trash=tmp_path / "trash").problems()
    (problem,) = problems
    assert_translatable(
        problem.message,
        "“archive.md” is a folder, which the agent takes for an entry by its name: the agent"
        " cannot read its memory at all while this is here. Renaming it to “archive” fixes"
        " that and leaves everything inside it as it is.",
    )
    assert_translatable(problem.fix_label, "Rename it to “archive”")
    failure = listing_failure(problems)
    assert_translatable(failure)
    assert failure.splitlines()[3] == f"- {problem.message}"


# ------------------------------------------------------------------------------ shown translated


def _translations_module():
    spec = importlib.util.spec_from_file_location(
        "translations", ROOT / "packaging" / "translations.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compile_catalogue(entries: dict[tuple[str, str], str], folder: Path) -> Path:
    """A real ``.qm`` for ``entries`` ({(context, source): translation}), made by Qt's tool."""
    root = ET.Element("TS", version="2.1", language="es")
    for context in sorted({c for c, _s in entries}):
        node = ET.SubElement(root, "context")
        ET.SubElement(node, "name").text = context
        for (c, source), translation in entries.items():
            if c == context:
                message = ET.SubElement(node, "message")
                ET.SubElement(message, "source").text = source
                ET.SubElement(message, "translation").text = translation
    ts = folder / "core_es.ts"
    ts.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + ET.tostring(root, "unicode")
    )
    qm = folder / "core_es.qm"
    _translations_module()._run("lrelease", ["-silent", str(ts), "-qm", str(qm)])
    return qm


def test_a_core_message_made_of_messages_is_shown_translated(
    qapp: QCoreApplication, db: Path, tmp_path: Path
) -> None:
    conflict, old, new = topic_conflict(db)
    qm = compile_catalogue(
        {
            ("Topics", conflict.args[0].template): (
                "{subject} daría al tema «{topic_key}» {count} observaciones vivas ({rows}); el"
                " próximo guardado del agente solo reescribiría la más reciente. Elige qué pasa"
                " con {others}."
            ),
            ("Topics", "Restoring #{id}"): "Restaurar #{id}",
            ("Topics", "two"): "dos",
            ("Wording", "{items} and {last}"): "{items} y {last}",
        },
        tmp_path,
    )
    translator = QTranslator()
    assert translator.load(str(qm))
    qapp.installTranslator(translator)
    try:
        shown = i18n.shown(conflict)
    finally:
        qapp.removeTranslator(translator)
    assert shown == (
        f"Restaurar #{old} daría al tema «{KEY}» dos observaciones vivas (#{old} y #{new}); el"
        f" próximo guardado del agente solo reescribiría la más reciente. Elige qué pasa con"
        f" #{new}."
    )
    assert i18n.shown(conflict) == str(conflict)  # without the catalogue: the English


def test_a_closed_store_says_so_in_a_translatable_sentence(db: Path) -> None:
    with ObservationStore(db) as store:
        store.close()
        with pytest.raises(StoreError) as caught:
            store.count()
    assert_translatable(caught.value.args[0], "memory.sqlite was closed; open it again")
