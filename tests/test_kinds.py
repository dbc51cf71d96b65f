"""Source and store kinds are an enum whose values are the bytes already on disk."""

from memory_desk.core.journal.model import OBSERVATIONS, PERSONA
from memory_desk.core.kinds import SourceKind, StoreKind


def test_values_are_the_stored_spellings():
    # settings keep "db:/path", journal rows keep "observations" / "persona"
    assert [k.value for k in SourceKind] == ["db", "persona"]
    assert [k.value for k in StoreKind] == ["observations", "persona"]
    assert OBSERVATIONS is StoreKind.OBSERVATIONS and PERSONA is StoreKind.PERSONA
    assert StoreKind("observations") is StoreKind.OBSERVATIONS  # a row read back as text
    assert f"{SourceKind.DB}:/x" == "db:/x"


def test_each_kind_leads_to_the_other():
    for source in SourceKind:
        assert source.store_kind.source_kind is source
    assert SourceKind.DB.store_kind is StoreKind.OBSERVATIONS
    assert StoreKind.PERSONA.source_kind is SourceKind.PERSONA
