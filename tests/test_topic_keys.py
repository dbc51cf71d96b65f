"""Topic keys are stored as the plugin stores them (FORMATS.md A, ``normalizeTopicKey``).

Every key a person gives (the edit form, a re-created row, a rollback, the write run again
after the topic question) is normalised in the write layer, so the agent's next save of the
same subject rewrites the person's row instead of making a second one; the one-live-row
checks compare normalised keys. The expected keys below are worked out by hand from the rule.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QTableView, QWidget

from alisio_fixtures import add_observation
from memory_desk.app import create_main_window
from memory_desk.core import TopicConflict, alisio
from memory_desk.core.observations import TOPIC_CLEAR_OTHER, ObservationStore
from memory_desk.ui.observations.model import Column
from test_review_actions import review_writes_done
from test_review_window import looked, rows, select_row, show_review, trigger
from window_helpers import agent_delete, agent_save, live_topic_rows, stored_row, writes_done

pytest_plugins = ["window_fixture"]  # the open_window fixture

AGENT_ONE_WRITE = Path(__file__).parent / "agents" / "alisio_one_write.py"
PROJECT = "proj-12345678"  # the project alisio_one_write.py saves into
WAIT_MS = 15_000


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Area/Sub/Leaf", "area/sub-leaf"),
        ("  Deploy Notes / Prod Box ", "deploy-notes/prod-box"),
        ("a/b/c/d", "a/b-c-d"),
        ("Ops//Deploy/ /Prod/", "ops/deploy-prod"),  # empty parts dropped
        ("deployment", "deployment"),  # family-only is a key
        ("Deployment!!", "deployment"),
        ("MiXeD/CaSe_Key", "mixed/case-key"),
        ("auth/token-refresh", "auth/token-refresh"),
        ("--auth--/--token--", "auth/token"),
        ("?!", None),
        ("/-/ .. /", None),
        ("", None),
        ("   ", None),
        # Non-ASCII: JavaScript's toLowerCase, then every run outside a-z0-9 is one dash.
        ("İstanbul/Café", "i-stanbul/caf"),  # İ lowers to i + U+0307
        ("Ünïcode/naïve résumé", "n-code/na-ve-r-sum"),
        ("🚀 Launch/Plan 🚀", "launch/plan"),
        ("\u212a/X", "k/x"),  # the Kelvin sign lowers to an ASCII k
        ("日本語", None),
    ],
)
def test_keys_are_normalised_as_the_plugin_does(typed: str, stored: str | None) -> None:
    assert alisio.normalize_topic_key(typed) == stored


def test_the_whole_key_is_cut_at_80_and_a_dash_left_by_the_cut_stays() -> None:
    # "f/" + 40 a + "-" + 40 b is 83 characters: the whole key is cut to 80.
    assert alisio.normalize_topic_key("F/" + "A" * 40 + "/" + "B" * 40) == (
        "f/" + "a" * 40 + "-" + "b" * 37
    )
    # "f/" + 77 a is 79 characters; the joining dash is the 80th and stays (a plain slice).
    cut = alisio.normalize_topic_key("f/" + "a" * 77 + "/b")
    assert cut == "f/" + "a" * 77 + "-" and len(cut) == 80
    # A family longer than 80 with a second part: the slice takes the family's start.
    assert alisio.normalize_topic_key("y" * 90 + "/z") == "y" * 80
    # One part is the key alone, never cut.
    assert alisio.normalize_topic_key("x" * 100) == "x" * 100
    # Cut in UTF-16 units, but by then the key is ASCII: an emoji is one dash, not two.
    assert alisio.normalize_topic_key("f/" + "😀" * 100) == "f"  # the emoji part is empty
    assert alisio.normalize_topic_key("f/" + "a😀" * 50) == ("f/" + "a-" * 50)[:80]


# -- the store --------------------------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "memory.sqlite"
    alisio.create_database(path)
    return path


def test_edit_and_recreate_store_the_normalised_key(db: Path) -> None:
    first = add_observation(db, title="One", content="one", project=PROJECT)
    second = add_observation(db, title="Two", content="two", project=PROJECT)
    with ObservationStore(db) as store:
        assert store.edit(first, topic_key="Area/Sub/Leaf").after.topic_key == "area/sub-leaf"
        assert store.edit(second, topic_key="Deployment").after.topic_key == "deployment"
        assert store.edit(second, topic_key="?!").after.topic_key is None  # no key
        gone = store.get(second)
    agent_delete(db, second)
    with ObservationStore(db) as store:
        again = store.recreate(
            gone, title="Two", content="two", type="decision", topic_key="  Ops / Deploy  "
        )
    assert again.topic_key == "ops/deploy"
    assert stored_row(db, first)["topic_key"] == "area/sub-leaf"


def test_one_live_row_per_topic_compares_normalised_keys(db: Path) -> None:
    held = add_observation(db, title="Held", content="held", topic_key="area/sub-leaf")
    other = add_observation(db, title="Other", content="other")
    # A row kept under a key the plugin would not store as it is (an older writer's).
    legacy = add_observation(db, title="Legacy", content="legacy", topic_key="Ops/Deploy")
    with ObservationStore(db) as store:
        with pytest.raises(TopicConflict) as caught:
            store.edit(other, topic_key="Area / Sub / Leaf")
        assert caught.value.clashes[0].holders == (held,)
        assert caught.value.clashes[0].topic_key == "area/sub-leaf"
        with pytest.raises(TopicConflict) as caught:
            store.edit(other, topic_key="ops/deploy")
        assert caught.value.clashes[0].holders == (legacy,)
        store.edit(other, topic_key="ops/deploy", on_topic_conflict=TOPIC_CLEAR_OTHER)
    assert stored_row(db, legacy)["topic_key"] is None
    assert stored_row(db, other)["topic_key"] == "ops/deploy"


def agent_saves(db: Path, title: str, content: str, topic: str) -> dict:
    """The agent's own memory_save, in a process of its own."""
    result = subprocess.run(
        [sys.executable, str(AGENT_ONE_WRITE), str(db), "save", title, content, "--topic", topic],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_agents_next_save_of_the_subject_rewrites_the_persons_row(db: Path) -> None:
    row = add_observation(db, title="Deploy steps", content="by hand", project=PROJECT)
    with ObservationStore(db) as store:
        store.edit(row, topic_key="Deploy / Prod Box")
    saved = agent_saves(db, "Deploy steps", "the agent's revision", "Deploy/Prod Box")
    assert saved == {"id": row, "action": "revised"}
    assert live_topic_rows(db, "deploy/prod-box") == [row]
    assert stored_row(db, row)["content"] == "the agent's revision"


def test_a_key_cut_at_80_is_stored_as_the_plugin_cut_it_on_every_path(db: Path) -> None:
    typed = "Release/" + "a" * 71 + "/notes for the team"
    cut = "release/" + "a" * 71 + "-"  # 80 characters, the cut's dash kept
    assert alisio.normalize_topic_key(typed) == cut
    assert alisio.is_valid_topic_key(cut) and alisio.stored_topic_key(cut) == cut
    row = add_observation(db, title="Release notes", content="by hand", project=PROJECT)
    with ObservationStore(db) as store:
        assert store.edit(row, topic_key=typed).after.topic_key == cut
        assert store.edit(row, topic_key="x").after.topic_key == "x"
        assert store.edit(row, topic_key=cut).after.topic_key == cut  # the form sends this
    saved = agent_saves(db, "Release notes", "the agent's revision", typed)
    assert saved == {"id": row, "action": "revised"}


# -- the edit form, through the real window ----------------------------------------------------


def test_the_edit_form_says_how_the_key_is_stored_and_stores_it_so(qtbot, db: Path) -> None:
    row = add_observation(
        db, title="Deploy steps", content="by hand", project=PROJECT, topic_key="Old/Key/Here"
    )
    window = create_main_window(["--db", str(db)])
    qtbot.addWidget(window)
    window.show()
    view = window.findChild(QTableView, "observationsTable")
    qtbot.waitUntil(lambda: view.model().rowCount() == 1)
    view.setCurrentIndex(view.model().index(0, Column.TITLE))
    qtbot.waitUntil(lambda: window.observations_page.detail.shown_id == row)
    qtbot.mouseClick(window.findChild(QWidget, "editButton"), Qt.MouseButton.LeftButton)
    key = window.findChild(QLineEdit, "editTopicKey")
    stored_as = window.findChild(QLabel, "editTopicKeyStored")
    qtbot.waitUntil(key.isVisible)
    # The row's own key, left as it is, is kept as stored.
    assert key.text() == "Old/Key/Here" and stored_as.text() == "stored as Old/Key/Here"

    key.clear()
    assert not stored_as.isVisible()
    for typed, said in [
        ("A", "stored as a"),
        ("Area/", "stored as area"),
        ("Area/Sub/Leaf", "stored as area/sub-leaf"),
        ("?!", "stored without a topic key"),
        ("Release/" + "a" * 71 + "/notes", "stored as release/" + "a" * 71 + "-"),
        ("Deployment", "stored as deployment"),
    ]:
        key.clear()
        qtbot.keyClicks(key, typed)  # live, as the person types
        assert stored_as.isVisible() and stored_as.text() == said

    qtbot.keyClick(key, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    writes_done(window)
    assert stored_row(db, row)["topic_key"] == "deployment"
    saved = agent_saves(db, "Deploy steps", "the agent's revision", "DEPLOYMENT")
    assert saved == {"id": row, "action": "revised"}


# -- a rollback through the review page ---------------------------------------------------------


def test_rolling_back_a_deleted_row_with_a_family_only_key_writes_it_again(
    qtbot, open_window, db: Path
) -> None:
    agent_save(db, title="Deploy with the script", content="Run deploy.sh.", topic_key="deployment")
    agent_save(db, title="Tabs for indentation", content="Indent with tabs.")
    window = open_window(["--db", str(db)])
    looked(qtbot, window)
    agent_delete(db, 1)
    show_review(window)
    qtbot.waitUntil(
        lambda: rows(window) == [("✕ deleted", "#1 Deploy with the script")], timeout=WAIT_MS
    )
    select_row(window, 0)
    trigger(window, "reviewRollbackAction")
    review_writes_done(qtbot, window)
    again = stored_row(db, 3)
    assert again is not None and again["deleted_at"] is None
    assert (again["title"], again["topic_key"]) == ("Deploy with the script", "deployment")
    assert "Wrote #1 back as new observation #3" in window.message_bar.text()
