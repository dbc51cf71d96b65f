"""A persona folder rewritten by another process 20 times a second while the person edits one
entry: the window keeps the person's unsaved text, shows the conflict banner when (and only
when) their entry changes, saves without losing the agent's writes or the person's, and never
shows or leaves a torn file.

tests/agents/persona_rewriter.py plays the agent: it rewrites the other entries in place, in
two halves, 20 times a second, and the edited entry when the test asks it to.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_desk.core.persona import PersonaFolder
from memory_desk.ui.persona import folder_reads
from memory_desk.ui.persona import listing as persona_listing
from test_live_window_persona import (
    WAIT_MS,
    banner,
    body,
    button,
    descriptions_in_list,
    select,
)
from window_helpers import entry_bytes

pytest_plugins = ["window_fixture"]

REWRITER = Path(__file__).parent / "agents" / "persona_rewriter.py"
EDITED = "no-fish-puns"
OTHERS = ["works-at-night", "likes-tea", "short-answers", "early-riser"]
WRITES_BEFORE_SAVE = 20  # a second of the agent's writing
AGENT_DESCRIPTION = re.compile(r"(?P<name>[a-z-]+) v(?P<v>\d+)")


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    folder = tmp_path / ".miyagi" / "memory"
    folder.mkdir(parents=True)
    for name in [EDITED, *OTHERS]:
        (folder / f"{name}.md").write_bytes(entry_bytes(name, f"{name} as it was."))
    return folder


@pytest.fixture
def control(tmp_path: Path) -> Path:
    path = tmp_path / "control"
    path.mkdir()
    return path


@pytest.fixture
def rewriter(qtbot, memory: Path, control: Path) -> Iterator[subprocess.Popen]:
    proc = subprocess.Popen(
        [sys.executable, str(REWRITER), str(memory), str(control), EDITED, ",".join(OTHERS)]
    )
    yield proc
    (control / "stop").touch()
    qtbot.waitUntil(lambda: proc.poll() is not None, timeout=WAIT_MS)
    assert proc.returncode == 0


def written(control: Path) -> list[tuple[str, int]]:
    """What the agent wrote so far, in order."""
    log = control / "log"
    lines = log.read_text("utf-8").splitlines() if log.exists() else []
    return [(name, int(v)) for name, v in (line.split() for line in lines)]


def agent_body(name: str, version: int) -> str:
    return f"{name} version {version}: " + " ".join(
        ["words the agent keeps about the person."] * 40
    )


def test_the_persons_edit_survives_an_agent_rewriting_the_folder_20_times_a_second(
    qtbot, open_window, memory: Path, control: Path, rewriter: subprocess.Popen
) -> None:
    window = open_window(["--persona", str(memory)])
    page = window.persona_page
    select(page, EDITED)
    editor_texts: list[str] = []
    descriptions: list[str] = []
    body(page).textChanged.connect(lambda: editor_texts.append(body(page).toPlainText()))
    page.model.dataChanged.connect(
        lambda *_: descriptions.extend(descriptions_in_list(page).values())
    )
    mine = "The person's own words about fish."
    body(page).setPlainText(mine)

    # the agent rewrites every other entry, many times: the person's text and place stay
    qtbot.waitUntil(lambda: len(written(control)) >= WRITES_BEFORE_SAVE, timeout=WAIT_MS)
    qtbot.waitUntil(
        lambda: all(
            d.startswith(f"{n} v") for n, d in descriptions_in_list(page).items() if n in OTHERS
        ),
        timeout=WAIT_MS,
    )
    assert body(page).toPlainText() == mine
    assert banner(page).isHidden()
    assert page.current_name() == EDITED
    with qtbot.waitSignal(page.info_raised, check_params_cb=lambda t: t.startswith("Saved")):
        button(page, "personaSave").click()
    assert PersonaFolder(memory).read(EDITED).body == mine

    # the agent rewrites the person's entry while they edit it again: the banner asks
    again = "The person's second thoughts about fish."
    body(page).setPlainText(again)
    (control / "rewrite-1").touch()
    qtbot.waitUntil(banner(page).isVisible, timeout=WAIT_MS)
    assert body(page).toPlainText() == again
    assert PersonaFolder(memory).read(EDITED).body == agent_body(EDITED, 1)
    button(page, "conflictKeepMine").click()
    with qtbot.waitSignal(page.info_raised, check_params_cb=lambda t: t.startswith("Saved")):
        button(page, "personaSave").click()
    assert PersonaFolder(memory).read(EDITED).body == again

    # the agent's next write of it lands too, and the page, holding no edits, follows it
    (control / "rewrite-2").touch()
    qtbot.waitUntil(lambda: body(page).toPlainText() == agent_body(EDITED, 2), timeout=WAIT_MS)
    assert banner(page).isHidden()

    (control / "stop").touch()
    qtbot.waitUntil(lambda: rewriter.poll() is not None, timeout=WAIT_MS)
    last = dict(written(control))
    assert len(written(control)) >= WRITES_BEFORE_SAVE + 2
    folder = PersonaFolder(memory)
    for name in OTHERS:  # every write of the agent's is there, whole
        entry = folder.read(name)
        assert (entry.body, entry.description) == (
            agent_body(name, last[name]),
            f"{name} v{last[name]}",
        )
    assert folder.read(EDITED).body == agent_body(EDITED, 2)
    # never a torn file on screen: whole versions of the agent's, or the person's own text
    assert set(editor_texts) <= {mine, again, agent_body(EDITED, 2)}, editor_texts
    for text in descriptions:
        assert AGENT_DESCRIPTION.fullmatch(text) or text.startswith("About "), text


def test_a_folder_opened_in_the_middle_of_the_agents_writes_shows_no_torn_file(
    qtbot, open_window, memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The listing that opens the folder catches the agent between its truncate and its first
    write (an empty file) and between its two halves (a file cut short): neither read is shown,
    as a reload would not show it; each entry comes in once its file is whole."""
    # the agent is taken as still writing however slow the machine (and for as many rechecks)
    monkeypatch.setattr(persona_listing, "HALF_WRITTEN_QUIET_NS", 600 * 10**9)
    monkeypatch.setattr(folder_reads, "MAX_RECHECKS", 10**6)
    emptied, cut = OTHERS[0], OTHERS[1]
    whole = {name: entry_bytes(name, agent_body(name, 1)) for name in (emptied, cut)}
    (memory / f"{emptied}.md").write_bytes(b"")
    (memory / f"{cut}.md").write_bytes(whole[cut][: len(whole[cut]) // 2])

    window = open_window(["--persona", str(memory)])
    page = window.persona_page
    seen: list[tuple[str, str, str]] = []  # (name, description, body) of every row shown

    def note(*_args) -> None:
        for name, description in descriptions_in_list(page).items():
            seen.append((name, description, page.model.entry(name).body))

    note()
    for signal in (page.model.dataChanged, page.model.rowsInserted, page.model.modelReset):
        signal.connect(note)
    qtbot.waitUntil(lambda: not page.is_listing(), timeout=WAIT_MS)
    note()
    for name, data in whole.items():  # the agent's writes end
        (memory / f"{name}.md").write_bytes(data)

    def shown_body(name: str) -> str | None:
        entry = page.model.entry(name)
        return None if entry is None else entry.body

    qtbot.waitUntil(
        lambda: all(shown_body(name) == agent_body(name, 1) for name in whole), timeout=WAIT_MS
    )
    note()
    torn = [row for row in seen if row[0] in whole and row[2] != agent_body(row[0], 1)]
    assert torn == [], torn
    assert {n: d for n, d in descriptions_in_list(page).items() if n in whole} == {
        name: f"About {name}" for name in whole
    }


def test_a_save_while_a_torn_read_is_held_back_does_not_show_it(
    qtbot, open_window, memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent has truncated one entry and not written it yet when the person saves another:
    the save reads the held-back file again and, finding it still empty, keeps holding it
    back; its write shows once whole."""
    monkeypatch.setattr(persona_listing, "HALF_WRITTEN_QUIET_NS", 600 * 10**9)
    monkeypatch.setattr(folder_reads, "MAX_RECHECKS", 10**6)
    window = open_window(["--persona", str(memory)])
    page = window.persona_page
    select(page, EDITED)
    emptied = OTHERS[0]
    descriptions: list[str] = []
    page.model.dataChanged.connect(
        lambda *_: descriptions.append(descriptions_in_list(page)[emptied])
    )
    (memory / f"{emptied}.md").write_bytes(b"")  # the agent's truncate
    qtbot.waitUntil(page.is_reading, timeout=WAIT_MS)  # held back: read again shortly
    body(page).setPlainText("The person's own words about fish.")
    with qtbot.waitSignal(page.info_raised, check_params_cb=lambda t: t.startswith("Saved")):
        button(page, "personaSave").click()
    assert descriptions_in_list(page)[emptied] == f"About {emptied}"
    (memory / f"{emptied}.md").write_bytes(entry_bytes(emptied, agent_body(emptied, 1)))
    qtbot.waitUntil(
        lambda: page.model.entry(emptied).body == agent_body(emptied, 1), timeout=WAIT_MS
    )
    assert set(descriptions) == {f"About {emptied}"}, descriptions
