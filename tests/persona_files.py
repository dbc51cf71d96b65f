"""Persona entry files exactly as agent-kit writes them, for the tests that build big folders."""

from __future__ import annotations


def agent_file(name: str, description: str, updated: str, body: str, type_: str = "user") -> bytes:
    """One entry exactly as agent-kit writes it: the four keys in its order, a blank line, the
    trimmed body and a final newline."""
    return (
        f"---\nname: {name}\ndescription: {description}\ntype: {type_}\nupdated: {updated}\n"
        f"---\n\n{body}\n"
    ).encode()


def stamp(n: int) -> str:
    """A distinct-enough ``updated`` value for the n-th entry (ISO 8601 as the agent writes)."""
    return f"2025-{1 + n % 12:02d}-{1 + n % 28:02d}T{n % 24:02d}:{n % 60:02d}:00.{n % 7:03d}Z"
