"""The Markdown export flushes only what it wrote: an ``fsync`` of each file and of its folder,
never a whole-system ``sync``/``syncfs`` (which waits for every other program's writes).

Seen from outside, as the kernel sees it: the export runs in a real second process under
``strace`` (installed by ``.ci/run``), which records every flush call the process makes.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from alisio_fixtures import build_database

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="strace traces Linux calls")

EXPORT = """
import sys
from memory_desk.core.export import export_observations_markdown
from memory_desk.core.observations import ObservationStore
from memory_desk.core.progress import Progress

store = ObservationStore(sys.argv[1])
try:
    result = export_observations_markdown(store, None, sys.argv[2], Progress())
finally:
    store.close()
print(result.count)
"""


def test_the_markdown_export_fsyncs_its_files_and_folder_and_never_syncs_the_system(
    tmp_path: Path,
) -> None:
    strace = shutil.which("strace")
    assert strace, "strace is one of the test packages (.ci/run)"
    db = build_database(tmp_path / "memory.sqlite", 40, seed=5)
    target = tmp_path / "export"
    log = tmp_path / "strace.log"

    done = subprocess.run(
        [strace, "-f", "-qq", "-y", "-o", str(log), "-e", "trace=sync,syncfs,fsync,fdatasync"]
        + [sys.executable, "-c", EXPORT, str(db), str(target)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    if done.returncode != 0 and "ptrace" in done.stderr and "not permitted" in done.stderr:
        pytest.skip(f"strace may not trace here: {done.stderr.strip()}")  # a locked container
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in target.iterdir())
    assert int(done.stdout) + 1 == len(written)  # the observations and index.md
    # "<pid> fsync(6</path/of/the/file>) = 0", or split in "<unfinished ...>" and "resumed"
    calls = [re.sub(r"^\d+\s+", "", line) for line in log.read_text().splitlines()]
    assert not [call for call in calls if re.match(r"(sync|syncfs)\(", call)]
    assert not [call for call in calls if "= -1" in call]
    flushed = [
        Path(m[1]) for call in calls if (m := re.match(r"f(?:data)?sync\(\d+<([^>]*)>", call))
    ]
    # each file written, in the folder while it still had its temporary name
    assert {path.name for path in flushed if path.parent.parent == tmp_path} >= set(written)
    assert tmp_path in flushed  # the folder that now holds the export
