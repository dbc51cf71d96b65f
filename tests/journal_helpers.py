"""The agents, as the journal tests run them: each write in a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ALISIO_AGENT = Path(__file__).parent / "agents" / "alisio_one_write.py"
PERSONA_AGENT = Path(__file__).parent / "agents" / "persona_agent.py"


def alisio_agent(db: Path, *args: str) -> dict:
    """One write by the plugin (``alisio_one_write.py``); what it printed, as JSON."""
    done = subprocess.run(
        [sys.executable, str(ALISIO_AGENT), str(db), *args],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(done.stdout)


def persona_agent(folder: Path, *args: str) -> None:
    """One write by the persona agent (the folder passed as bytes: its name may not be
    UTF-8)."""
    subprocess.run(
        [sys.executable, str(PERSONA_AGENT), os.fsencode(folder), *args],
        capture_output=True,
        timeout=30,
        check=True,
    )
