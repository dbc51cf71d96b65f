"""The person's language: Spanish or English, through Qt's translation system.

Every visible string goes through :func:`translate` (``QCoreApplication.translate``) with a
literal context and text, so ``pyside6-lupdate`` finds it; the core's messages are
:class:`~memory_desk.core.messages.Msg` objects, shown with :func:`shown`. The catalogues are
``resources/translations/memory_desk_<lang>.ts``; the build compiles them into ``.qm`` files
inside the package (``packaging/translations.py``). English is the source language.

Plurals: Python's ``lupdate`` does not record Qt's ``%n`` forms, and both languages have the
same two forms (one, other), so :func:`plural` picks between two translated templates.

The language is chosen once per process, before the window is built: ``--lang`` first, then
the setting ``ui/language`` (``system``, ``en``, ``es``), then the system's language; anything
other than Spanish is English. Dates and numbers follow the chosen language's locale.
"""

from __future__ import annotations

import logging
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTranslator

from memory_desk.core.messages import Msg

log = logging.getLogger(__name__)

LANGUAGES = ("en", "es")
LANGUAGE_KEY = "ui/language"  # system | en | es
translate = QCoreApplication.translate

_installed: list[QTranslator] = []
_current = "en"


def translations_dir() -> Path:
    return Path(str(resources.files("memory_desk.resources") / "translations"))


def shown(text: object) -> str:
    """``text`` in the person's language: a core ``Msg`` is translated, anything else as is.

    An exception shows its first argument (how the core raises its messages).
    """
    if isinstance(text, BaseException):
        first = text.args[0] if text.args else ""
        text = first if isinstance(first, str) else str(text)
    if isinstance(text, Msg):
        values = {
            key: shown(value) if isinstance(value, Msg) else value
            for key, value in text.values.items()
        }
        template = translate(text.context, text.template)
        try:
            return template.format(**values) if values else template
        except (KeyError, IndexError, ValueError):  # a broken translation: English, not a crash
            log.warning("translation of %r does not format", text.template)
            return str(text)
    return str(text)


def system_language() -> str:
    for name in QLocale.system().uiLanguages():
        code = name.replace("_", "-").split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


def choose_language(option: str | None, settings: QSettings | None) -> str:
    """``--lang`` if given, else the setting, else the system's; always ``en`` or ``es``."""
    for wanted in (option, settings.value(LANGUAGE_KEY) if settings is not None else None):
        if isinstance(wanted, str) and wanted.lower() in LANGUAGES:
            return wanted.lower()
    return system_language()


def install_language(language: str, app: QCoreApplication | None = None) -> str:
    """Load the catalogues for ``language`` into ``app`` (replacing earlier ones).

    Returns the language in effect. A missing ``.qm`` (a source checkout never built) logs a
    warning and leaves English.
    """
    global _current
    app = app or QCoreApplication.instance()
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    language = language if language in LANGUAGES else "en"
    if language != "en":  # English is the source language
        ours = QTranslator(app)
        if ours.load(f"memory_desk_{language}", str(translations_dir())):
            app.installTranslator(ours)
            _installed.append(ours)
        else:
            log.warning("no compiled catalogue for %s in %s", language, translations_dir())
            language = "en"
    if language != "en":
        qt_own = QTranslator(app)  # Qt's standard buttons and dialogs
        path = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        if qt_own.load(f"qtbase_{language}", path):
            app.installTranslator(qt_own)
            _installed.append(qt_own)
    QLocale.setDefault(_locale_for(language))
    _current = language
    return language


def _locale_for(language: str) -> QLocale:
    """The system's locale when it speaks ``language`` (keeps en_GB's or es_MX's formats),
    else the language's main locale."""
    system = QLocale.system()
    wanted = QLocale.Language.Spanish if language == "es" else QLocale.Language.English
    return system if system.language() == wanted else QLocale(wanted)


def current_language() -> str:
    return _current


def locale() -> QLocale:
    """The chosen language's locale (for dates and numbers)."""
    return QLocale()


def number(value: int | float) -> str:
    """A number as the chosen locale writes it (``1,234`` / ``1.234``)."""
    return QLocale().toString(value)


def plural(count: int, one: str, other: str, **values: object) -> str:
    """``one`` or ``other`` (both already translated) for ``count``, formatted.

    ``{n}`` in the template is the count as the locale writes it::

        plural(n, translate("Page", "{n} observation"), translate("Page", "{n} observations"))
    """
    return (one if count == 1 else other).format(n=number(count), **values)


def mark_data(widget) -> None:
    """Say that ``widget`` shows the person's data (never translated, skipped by the test)."""
    widget.setProperty("showsData", True)
