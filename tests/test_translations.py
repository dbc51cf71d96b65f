"""The Spanish catalogue is complete, current and well formed; the build compiles it; the
window speaks the language chosen by ``--lang``, the setting or the system.

The per-page tests (``test_ui_i18n_*.py``) check with a marking translator that every visible
string goes through Qt's translation; these check the real Spanish.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, QSettings, Qt, QTranslator
from PySide6.QtWidgets import QMenu

from memory_desk.ui import i18n

pytest_plugins = ["window_fixture"]

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "resources" / "translations" / "memory_desk_es.ts"
FIELD = re.compile(r"\{(\w*)[^{}]*\}")


def _translations_module():
    spec = importlib.util.spec_from_file_location(
        "translations", ROOT / "packaging" / "translations.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def messages(path: Path) -> list[tuple[str, str, ET.Element]]:
    found = []
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            found.append((name, message.findtext("source"), message.find("translation")))
    return found


def test_every_spanish_entry_is_translated_and_finished() -> None:
    unfinished = [
        f"{context}: {source!r}"
        for context, source, translation in messages(CATALOGUE)
        if translation is None
        or translation.get("type") in {"unfinished", "vanished", "obsolete"}
        or not (translation.text or "").strip()
    ]
    assert messages(CATALOGUE), "the catalogue is empty"
    assert unfinished == []


def test_two_different_actions_are_not_named_alike_in_spanish() -> None:
    """Discarding the persona editor's unsaved text and rolling back an agent's change are
    two actions: one Spanish word for both ("Revertir") made them look the same."""
    spanish = {
        (context, source): translation.text
        for context, source, translation in messages(CATALOGUE)
        if translation is not None
    }
    revert = spanish[("PersonaPage", "Revert")]
    roll_back = next(text for (_c, source), text in spanish.items() if source == "Roll back")
    assert revert != roll_back


def test_translations_keep_their_fields_and_accelerators() -> None:
    wrong = []
    for context, source, translation in messages(CATALOGUE):
        text = translation.text or ""
        if sorted(FIELD.findall(source)) != sorted(FIELD.findall(text)):
            wrong.append(f"{context}: {source!r} -> {text!r} (fields)")
        if ("&" in source.replace("&&", "")) != ("&" in text.replace("&&", "")):
            wrong.append(f"{context}: {source!r} -> {text!r} (accelerator)")
    assert wrong == []


def test_the_catalogue_holds_every_string_of_the_sources(tmp_path: Path) -> None:
    """lupdate over today's sources finds nothing the committed catalogue lacks."""
    module = _translations_module()
    fresh = tmp_path / "fresh.ts"
    fresh.write_bytes(CATALOGUE.read_bytes())
    module.lupdate(fresh, "es")
    committed = {(c, s) for c, s, _t in messages(CATALOGUE)}
    current = {(c, s) for c, s, _t in messages(fresh)}
    assert sorted(current - committed) == [], "run: python packaging/translations.py update"
    assert sorted(committed - current) == [], "obsolete entries: run the update again"
    # Every literal translate()/msg() call, read with ast, whatever lupdate's parser makes of it.
    assert sorted(set(module.literal_calls()) - committed) == []


def test_the_build_compiles_the_catalogue(tmp_path: Path) -> None:
    made = _translations_module().release(tmp_path)
    assert [path.name for path in made] == ["memory_desk_es.qm"]
    translator = QTranslator()
    assert translator.load(str(made[0]))
    assert translator.translate("MainWindow", "&File") == "&Archivo"


def test_the_installed_package_carries_the_compiled_catalogue() -> None:
    """The test command installs the package (editable): its build compiled the .qm."""
    assert (i18n.translations_dir() / "memory_desk_es.qm").is_file()


def test_lang_es_shows_the_window_in_spanish(qtbot, open_window) -> None:
    window = open_window(["--lang", "es", "--demo"])
    titles = [m.title() for m in window.menuBar().findChildren(QMenu) if m.title()]
    assert "&Archivo" in titles and "&File" not in titles
    assert QLocale().language() == QLocale.Language.Spanish
    model = window.observations_page.table.model()
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert "Título" in headers and "Title" not in headers


def test_english_sources_do_not_show_in_spanish(qtbot, open_window) -> None:
    """With the real Spanish catalogue, no visible string of either page is an English source
    whose Spanish differs (the complement of the marking translator's check)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from ui_strings import visible_texts

    english = {
        source
        for _c, source, translation in messages(CATALOGUE)
        if translation is not None and (translation.text or "") != source
    }
    window = open_window(["--lang", "es", "--demo"])
    leftovers = set()
    for page in ("observations", "persona"):
        window.show_page(page)
        qtbot.wait(50)
        leftovers |= {
            f"{where}: {text!r}" for where, text in visible_texts(window) if text in english
        }
    assert sorted(leftovers) == []


def _choose(env_lang: str, setting: str | None, option: str | None) -> str:
    code = (
        "import sys; from PySide6.QtCore import QSettings; from memory_desk.ui import i18n;"
        "s = QSettings(sys.argv[1], QSettings.Format.IniFormat);"
        "print(i18n.choose_language(sys.argv[2] or None, s))"
    )
    return code


@pytest.mark.parametrize(
    ("env_lang", "setting", "option", "expected"),
    [
        ("es_ES.UTF-8", None, None, "es"),
        ("es_MX.UTF-8", None, None, "es"),
        ("de_DE.UTF-8", None, None, "en"),
        ("es_ES.UTF-8", "en", None, "en"),
        ("en_US.UTF-8", "es", None, "es"),
        ("en_US.UTF-8", "system", None, "en"),
        ("es_ES.UTF-8", "en", "es", "es"),
        ("es_ES.UTF-8", None, "en", "en"),
    ],
)
def test_language_comes_from_the_flag_then_the_setting_then_the_system(
    tmp_path: Path, env_lang: str, setting: str | None, option: str | None, expected: str
) -> None:
    ini = tmp_path / "settings.ini"
    settings = QSettings(str(ini), QSettings.Format.IniFormat)
    if setting is not None:
        settings.setValue(i18n.LANGUAGE_KEY, setting)
    settings.sync()
    env = {**os.environ, "LC_ALL": env_lang, "LANG": env_lang, "LANGUAGE": ""}
    out = subprocess.run(
        [sys.executable, "-c", _choose(env_lang, setting, option), str(ini), option or ""],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert out.stdout.strip() == expected


def test_dates_and_numbers_follow_the_language(qapp) -> None:
    from memory_desk.ui import dates

    moment = 1_700_000_000_000  # 2023-11-14
    i18n.install_language("es")
    spanish = (
        dates.short_date(moment),
        i18n.number(1234567),
        dates.relative(moment - 3 * 86_400_000 + 1, moment),
    )
    i18n.install_language("en")
    english = (
        dates.short_date(moment),
        i18n.number(1234567),
        dates.relative(moment - 3 * 86_400_000 + 1, moment),
    )
    assert spanish[1] == "1.234.567" and english[1] == "1,234,567"
    assert spanish[0].startswith("14/11") and english[0].startswith("11/14")
    assert spanish[2] == "hace 2 días" and english[2] == "2 days ago"
