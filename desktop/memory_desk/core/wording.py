"""Messages made of other messages, still translatable: sentences in a row, lines, lists.

Joining :class:`~memory_desk.core.messages.Msg` objects with ``" ".join`` gives plain English
text, and the window could no longer translate the parts. These helpers join them with a
message of their own instead (``"{first} {then}"``...), so each part is still translated where
it is shown (``memory_desk.ui.i18n.shown``) and the English text is exactly what the join
gave. The parts are paired as a balanced tree, so a message of a thousand parts is only ten
levels deep. Parts that are all plain text are joined as plain text. Pure Python, no Qt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from memory_desk.core.messages import Msg, msg

_Pair = Callable[[str, str], str]


def sentences(parts: Iterable[str]) -> str:
    """Sentences one after the other, separated by a space."""
    return _joined(list(parts), " ", _space)


def lines(parts: Iterable[str]) -> str:
    """Lines one under the other."""
    return _joined(list(parts), "\n", _newline)


def semicolons(parts: Iterable[str]) -> str:
    """Clauses separated by "; "."""
    return _joined(list(parts), "; ", _semicolon)


def and_list(items: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: the "and" in the person's language."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return msg(
        "Wording", "{items} and {last}", items=_joined(items[:-1], ", ", _comma), last=items[-1]
    )


def _joined(parts: list[str], separator: str, pair: _Pair) -> str:
    if not any(isinstance(part, Msg) for part in parts):
        return separator.join(parts)
    if len(parts) == 1:
        return parts[0]
    middle = len(parts) // 2
    return pair(_joined(parts[:middle], separator, pair), _joined(parts[middle:], separator, pair))


def _space(first: str, then: str) -> str:
    return msg("Wording", "{first} {then}", first=first, then=then)


def _newline(first: str, then: str) -> str:
    return msg("Wording", "{first}\n{then}", first=first, then=then)


def _semicolon(first: str, then: str) -> str:
    return msg("Wording", "{first}; {then}", first=first, then=then)


def _comma(first: str, then: str) -> str:
    return msg("Wording", "{first}, {then}", first=first, then=then)
