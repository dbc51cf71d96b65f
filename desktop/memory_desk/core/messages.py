"""Text the core shows the person, kept translatable without Qt.

The core is pure Python, yet its errors and problems reach the window. ``msg(context,
template, **values)`` returns a :class:`Msg`: a ``str`` holding the English text (so logs,
exceptions and tests read as before) that also remembers its context, template and values, so
the UI can show it in the person's language (``memory_desk.ui.i18n.shown``). Qt's ``lupdate``
collects the templates: it is run with ``-tr-function-alias translate+=msg`` (see
``packaging/translations.py``), so both arguments must be string literals.

Templates use ``str.format`` fields (``{name}``); a value that is itself a ``Msg`` is shown
translated too.
"""

from __future__ import annotations

from typing import Any


class Msg(str):
    """English text that can still be translated: ``context``, ``template``, ``values``."""

    context: str
    template: str
    values: dict[str, Any]

    def __new__(cls, context: str, template: str, values: dict[str, Any]) -> Msg:
        text = template.format(**values) if values else template
        self = super().__new__(cls, text)
        self.context = context
        self.template = template
        self.values = dict(values)
        return self

    def __reduce__(self):  # pickles (and copies) keep the template
        return (Msg, (self.context, self.template, self.values))


def msg(context: str, template: str, /, **values: Any) -> Msg:
    """A message for the person: English now, translatable later (see the module's doc)."""
    return Msg(context, template, values)


def join(parts: list[str], separator: str = " ") -> str:
    """Join messages; the result is plain English text (used only for logs and fallbacks)."""
    return separator.join(parts)
