"""One live row per topic (FORMATS.md A): no write of Memory Desk leaves a topic two live rows.

Every database here is built by the plugin's DDL and filled by the plugin's own save
(``alisio.save_observation``), so the clashes are the ones a person meets: the agent saved
a new row on a topic after Memory Desk forgot (or re-keyed) the old one. For each action
(restore, edit of topic_key, recreate, undo of forget, undo of edit) the tests check that
without a choice nothing is written and TopicConflict names the rows; that each choice
leaves exactly one live row holding the key; that undo puts every row back; and that the
agent's next save on the topic lands on the row the person chose.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from alisio_fixtures import fts_integrity_problem, plugin_connection, read_all
from memory_desk.core import StoreError, TopicClash, TopicConflict, alisio
from memory_desk.core.observations import (
    TOPIC_CLEAR_OTHER,
    TOPIC_CLEAR_THIS,
    TOPIC_FORGET_OTHER,
    ObservationStore,
    PreviousDeletedAt,
)

P1 = "alpha-1a2b3c4d"
P2 = "beta-5e6f7a8b"
KEY = "auth/token-refresh"
MINUTE = 60_000
T0 = 1_790_000_000_000


class Agent:
    """The plugin in the test: every save goes through ``alisio.save_observation``."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.clock = T0

    def save(
        self,
        title: str,
        *,
        topic_key: str | None = KEY,
        project: str = P1,
        scope: str = "project",
        content: str | None = None,
    ) -> int:
        self.clock += MINUTE
        with plugin_connection(self.db) as conn:
            return alisio.save_observation(
                conn,
                title=title,
                content=content or f"**What** {title}",
                type="decision",
                project=project,
                scope=scope,
                topic_key=topic_key,
                session_id="chat-1",
                now=self.clock,
            ).id


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "memory.sqlite"
    alisio.create_database(path)
    return path


@pytest.fixture
def agent(db: Path) -> Agent:
    return Agent(db)


@pytest.fixture
def store(db: Path):
    with ObservationStore(db) as opened:
        yield opened


def snapshot(db: Path) -> dict[int, object]:
    return {row.id: row for row in read_all(db)}


def live_holders(db: Path, key: str = KEY, project: str = P1, scope: str = "project") -> set[int]:
    return {
        row.id
        for row in read_all(db)
        if row.topic_key == key
        and row.scope == scope
        and not row.forgotten
        and (scope == "personal" or row.project == project)
    }


def forgotten_then_replaced(agent: Agent, store: ObservationStore) -> tuple[int, int]:
    """The classic clash: #old forgotten by the person, then the agent saved #new on the topic."""
    old = agent.save("Refresh tokens every hour")
    store.forget([old], at=agent.clock + 1)
    new = agent.save("Refresh tokens every day")
    assert new != old
    return old, new


# ------------------------------------------------------------------------ restore


def test_restore_without_a_choice_writes_nothing_and_names_the_rows(
    agent: Agent, store: ObservationStore, db: Path
) -> None:
    old, new = forgotten_then_replaced(agent, store)
    before = snapshot(db)
    with pytest.raises(TopicConflict) as caught:
        store.restore([old])
    assert isinstance(caught.value, StoreError)
    assert caught.value.clashes == (TopicClash(old, KEY, "project", P1, (new,)),)
    assert str(caught.value) == (
        f"Restoring #{old} would give the topic “{KEY}” two live observations (#{old} and"
        f" #{new}); the agent's next save on it would rewrite only the newest. Choose what"
        f" happens to #{new}."
    )
    assert snapshot(db) == before


@pytest.mark.parametrize(
    ("choice", "topic_row", "other_live", "other_key"),
    [
        (TOPIC_FORGET_OTHER, "old", False, KEY),
        (TOPIC_CLEAR_OTHER, "old", True, None),
        (TOPIC_CLEAR_THIS, "new", True, KEY),
    ],
)
def test_restore_with_each_choice_and_its_undo(
    agent: Agent,
    store: ObservationStore,
    db: Path,
    choice: str,
    topic_row: str,
    other_live: bool,
    other_key: str | None,
) -> None:
    old, new = forgotten_then_replaced(agent, store)
    before = snapshot(db)
    restored = store.restore([old], on_topic_conflict=choice)
    assert restored == {old: before[old].deleted_at}
    rows = snapshot(db)
    assert not rows[old].forgotten
    assert rows[old].topic_key == (None if choice == TOPIC_CLEAR_THIS else KEY)
    assert (not rows[new].forgotten, rows[new].topic_key) == (other_live, other_key)
    expected = {"old": old, "new": new}[topic_row]
    assert live_holders(db) == {expected}
    # Ctrl+Z puts back every row the call changed, the other one too.
    assert isinstance(restored, PreviousDeletedAt)
    store.put_back_deleted_at(restored)
    assert snapshot(db) == before
    # Redo, then the agent's next save on the topic lands on the row the person chose.
    store.restore([old], on_topic_conflict=choice)
    assert agent.save("Refresh tokens on demand") == expected
    assert fts_integrity_problem(db) is None


def test_restore_undo_information_lists_what_the_choice_changed(
    agent: Agent, store: ObservationStore
) -> None:
    old, new = forgotten_then_replaced(agent, store)
    forgot = store.restore([old], on_topic_conflict=TOPIC_FORGET_OTHER)
    assert dict(forgot.topic_changes.deleted_at) == {new: None}
    assert not forgot.topic_changes.topic_keys
    store.put_back_deleted_at(forgot)
    cleared = store.restore([old], on_topic_conflict=TOPIC_CLEAR_OTHER)
    assert dict(cleared.topic_changes.topic_keys) == {new: KEY}
    store.put_back_deleted_at(cleared)
    kept = store.restore([old], on_topic_conflict=TOPIC_CLEAR_THIS)
    assert dict(kept.topic_changes.topic_keys) == {old: KEY}
    assert not kept.topic_changes.deleted_at


def test_bulk_restore_against_live_rows_asks_once_for_every_clash(
    agent: Agent, store: ObservationStore, db: Path
) -> None:
    a1 = agent.save("First on tokens")
    a2 = agent.save("First on builds", topic_key="build/cache")
    plain = agent.save("No topic at all", topic_key=None)
    store.forget([a1, a2, plain], at=agent.clock + 1)
    b1 = agent.save("Second on tokens")
    b2 = agent.save("Second on builds", topic_key="build/cache")
    before = snapshot(db)
    with pytest.raises(TopicConflict) as caught:
        store.restore([a1, a2, plain])
    assert {(c.row_id, c.topic_key, c.holders) for c in caught.value.clashes} == {
        (a1, KEY, (b1,)),
        (a2, "build/cache", (b2,)),
    }
    assert snapshot(db) == before  # not even the row without a topic came back
    restored = store.restore([a1, a2, plain], on_topic_conflict=TOPIC_CLEAR_OTHER)
    assert set(restored) == {a1, a2, plain}
    assert live_holders(db) == {a1} and live_holders(db, "build/cache") == {a2}
    store.put_back_deleted_at(restored)
    assert snapshot(db) == before


@pytest.fixture
def three_forgotten(agent: Agent, store: ObservationStore) -> list[int]:
    """Three rows of one topic, each forgotten before the agent saved the next: none live."""
    ids = []
    for title in ("Tokens v1", "Tokens v2", "Tokens v3"):
        ids.append(agent.save(title))
        store.forget([ids[-1]], at=agent.clock + 1)
    return ids


@pytest.mark.parametrize(
    ("choice", "live", "holder"),
    [
        (TOPIC_FORGET_OTHER, {2}, 2),  # only the newest comes back
        (TOPIC_CLEAR_OTHER, {0, 1, 2}, 2),  # all come back, only the newest keeps the key
        (TOPIC_CLEAR_THIS, {0, 1, 2}, 1),  # all come back, the next newest keeps the key
    ],
)
def test_bulk_restore_among_themselves(
    agent: Agent,
    store: ObservationStore,
    db: Path,
    three_forgotten: list[int],
    choice: str,
    live: set[int],
    holder: int,
) -> None:
    ids = three_forgotten
    before = snapshot(db)
    with pytest.raises(TopicConflict) as caught:
        store.restore(ids)
    # The newest restored row is "this"; the others are the holders, newest first.
    assert caught.value.clashes == (TopicClash(ids[2], KEY, "project", P1, (ids[1], ids[0])),)
    assert snapshot(db) == before
    restored = store.restore(ids, on_topic_conflict=choice)
    assert set(restored) == {ids[i] for i in live}
    assert {r.id for r in read_all(db) if not r.forgotten} == {ids[i] for i in live}
    assert live_holders(db) == {ids[holder]}
    store.put_back_deleted_at(restored)
    assert snapshot(db) == before
    store.restore(ids, on_topic_conflict=choice)
    assert agent.save("Tokens v4") == ids[holder]


def test_personal_topics_clash_across_projects_and_project_topics_do_not(
    agent: Agent, store: ObservationStore, db: Path
) -> None:
    mine = agent.save("Tabs", topic_key="style/indent", scope="personal", project=P1)
    store.forget([mine], at=agent.clock + 1)
    newer = agent.save("Spaces", topic_key="style/indent", scope="personal", project=P2)
    with pytest.raises(TopicConflict) as caught:
        store.restore([mine])
    assert caught.value.clashes[0].holders == (newer,)
    assert "personal" in str(caught.value)
    here = agent.save("Here", project=P1)
    store.forget([here], at=agent.clock + 1)
    agent.save("There", project=P2)  # same key, another project: another topic
    assert set(store.restore([here])) == {here}


def test_a_choice_without_a_clash_changes_nothing_more(
    agent: Agent, store: ObservationStore, db: Path
) -> None:
    row = agent.save("Alone")
    store.forget([row])
    restored = store.restore([row], on_topic_conflict=TOPIC_FORGET_OTHER)
    assert set(restored) == {row} and not restored.topic_changes
    assert live_holders(db) == {row}


def test_an_unknown_choice_is_a_programming_error(agent: Agent, store: ObservationStore) -> None:
    old, _new = forgotten_then_replaced(agent, store)
    with pytest.raises(ValueError, match="unknown topic choice"):
        store.restore([old], on_topic_conflict="keep_both")


# ------------------------------------------------------------------ undo of forget


@pytest.mark.parametrize(
    ("choice", "topic_row"),
    [(TOPIC_FORGET_OTHER, "mine"), (TOPIC_CLEAR_OTHER, "mine"), (TOPIC_CLEAR_THIS, "agents")],
)
def test_undo_of_forget_asks_when_the_agent_took_the_topic_meanwhile(
    agent: Agent, store: ObservationStore, db: Path, choice: str, topic_row: str
) -> None:
    mine = agent.save("Mine")
    forgotten = store.forget([mine], at=agent.clock + 1)
    agents = agent.save("The agent's")
    before = snapshot(db)
    with pytest.raises(TopicConflict) as caught:
        store.put_back_deleted_at(forgotten)
    assert caught.value.clashes == (TopicClash(mine, KEY, "project", P1, (agents,)),)
    assert snapshot(db) == before
    undone = store.put_back_deleted_at(forgotten, on_topic_conflict=choice)
    expected = {"mine": mine, "agents": agents}[topic_row]
    assert live_holders(db) == {expected}
    store.put_back_deleted_at(undone)  # redo of the forget, with the choice undone too
    assert snapshot(db) == before
    store.put_back_deleted_at(forgotten, on_topic_conflict=choice)
    assert agent.save("Next") == expected


# --------------------------------------------------------------------- edit


@pytest.mark.parametrize(
    ("choice", "topic_row"),
    [(TOPIC_FORGET_OTHER, "edited"), (TOPIC_CLEAR_OTHER, "edited"), (TOPIC_CLEAR_THIS, "holder")],
)
def test_editing_a_topic_key_onto_a_held_topic(
    agent: Agent, store: ObservationStore, db: Path, choice: str, topic_row: str
) -> None:
    holder = agent.save("Holder")
    edited = agent.save("Without a topic yet", topic_key=None)
    before = snapshot(db)
    with pytest.raises(TopicConflict) as caught:
        store.edit(edited, title="Now about tokens", topic_key=KEY)
    assert caught.value.clashes == (TopicClash(edited, KEY, "project", P1, (holder,)),)
    assert snapshot(db) == before
    result = store.edit(edited, title="Now about tokens", topic_key=KEY, on_topic_conflict=choice)
    assert result.after.title == "Now about tokens"
    assert result.after.topic_key == (None if choice == TOPIC_CLEAR_THIS else KEY)
    expected = {"edited": edited, "holder": holder}[topic_row]
    assert live_holders(db) == {expected}
    if choice == TOPIC_FORGET_OTHER:
        assert dict(result.topic_changes.deleted_at) == {holder: None}
    if choice == TOPIC_CLEAR_OTHER:
        assert dict(result.topic_changes.topic_keys) == {holder: KEY}
    store.undo_edit(result)
    assert snapshot(db) == before
    store.edit(edited, title="Now about tokens", topic_key=KEY, on_topic_conflict=choice)
    assert agent.save("Agent again") == expected
    assert fts_integrity_problem(db) is None


def test_editing_other_fields_or_a_forgotten_row_never_asks(
    agent: Agent, store: ObservationStore, db: Path
) -> None:
    old, new = forgotten_then_replaced(agent, store)
    store.edit(new, title="Retitled")  # keeps its own key
    store.edit(old, topic_key="auth/other")
    store.edit(old, topic_key=KEY)  # a forgotten row holds no topic
    assert live_holders(db) == {new}


# ------------------------------------------------------------------ undo of edit


@pytest.mark.parametrize(
    ("choice", "topic_row", "edited_key"),
    [
        (TOPIC_FORGET_OTHER, "edited", KEY),
        (TOPIC_CLEAR_OTHER, "edited", KEY),
        (TOPIC_CLEAR_THIS, "agents", None),
    ],
)
def test_undo_of_an_edit_that_gives_back_a_key_the_agent_reused(
    agent: Agent,
    store: ObservationStore,
    db: Path,
    choice: str,
    topic_row: str,
    edited_key: str | None,
) -> None:
    edited = agent.save("Tokens")
    result = store.edit(edited, topic_key="auth/elsewhere")
    agents = agent.save("The agent's tokens")  # the key is free: a new row
    before = snapshot(db)
    with pytest.raises(TopicConflict) as caught:
        store.undo_edit(result)
    assert caught.value.clashes == (TopicClash(edited, KEY, "project", P1, (agents,)),)
    assert snapshot(db) == before
    undone = store.undo_edit(result, on_topic_conflict=choice)
    assert undone.topic_key == edited_key
    assert undone == store.get(edited)
    expected = {"edited": edited, "agents": agents}[topic_row]
    assert live_holders(db) == {expected}
    if choice == TOPIC_FORGET_OTHER:
        assert dict(undone.topic_changes.deleted_at) == {agents: None}
    assert agent.save("Next") == expected


# ----------------------------------------------------------------- recreate


@pytest.mark.parametrize(
    ("choice", "topic_row"),
    [(TOPIC_FORGET_OTHER, "created"), (TOPIC_CLEAR_OTHER, "created"), (TOPIC_CLEAR_THIS, "holder")],
)
def test_recreate_on_a_held_topic(
    agent: Agent, store: ObservationStore, db: Path, choice: str, topic_row: str
) -> None:
    gone = agent.save("Deleted by the agent", topic_key=None)
    seen = store.get(gone)
    store.delete([gone])
    holder = agent.save("Holder")
    before = snapshot(db)
    values = dict(title="Kept by hand", content="**What** mine", type="decision", topic_key=KEY)
    with pytest.raises(TopicConflict) as caught:
        store.recreate(seen, **values)
    assert caught.value.clashes == (TopicClash(None, KEY, "project", P1, (holder,)),)
    assert "new observation" in str(caught.value)
    assert snapshot(db) == before
    created = store.recreate(seen, **values, on_topic_conflict=choice)
    assert created == store.get(created.id)
    expected = {"created": created.id, "holder": holder}[topic_row]
    assert live_holders(db) == {expected}
    # Undo as the docstring says: drop the new row, then put back what the choice changed.
    store.delete([created.id])
    store.put_back_topic_changes(created.topic_changes)
    assert snapshot(db) == before
    again = store.recreate(seen, **values, on_topic_conflict=choice)
    assert agent.save("Agent") == {"created": again.id, "holder": holder}[topic_row]
