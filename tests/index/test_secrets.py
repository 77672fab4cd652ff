"""No secret reaches any column of the sidecar: chunks, card inventories, titles, errors."""

from __future__ import annotations

from recollect.index import chunks
from recollect.model import Message, Part, Session

SECRETS = ["Sup3rS3cretValue", "abcdefghijklmnopqrstuvwxyz012345", "sk-abcdefghijklmnopqrstuvwx9999"]


def leaky_session() -> Session:
    filler = "x" * 790
    return Session(
        id="ses_1",
        source="opencode",
        agent_kind="opencode",
        title="deploy with DB_PASSWORD=Sup3rS3cretValue",
        directory="/p",
        messages=[
            Message(
                id="m1",
                role="user",
                time=1,
                parts=[Part(id="p1", kind="text", text="DB_PASSWORD=Sup3rS3cretValue ok plainwordmarker")],
            ),
            Message(
                id="m2",
                role="assistant",
                time=2,
                error="invalid api key sk-abcdefghijklmnopqrstuvwx9999",
                parts=[
                    Part(
                        id="p2",
                        kind="tool",
                        tool="bash",
                        tool_input={"command": "curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345' x"},
                        # a key straddling the excerpt's head cut
                        tool_output=filler + " sk-abcdefghijklmnopqrstuvwx9999 " + "y\n" * 3000,
                    )
                ],
            ),
        ],
    )


def test_secrets_are_redacted_everywhere_before_anything_is_cut_or_mined() -> None:
    card, rows = chunks.build(leaky_session())
    stored = "\n".join(
        [c.text for c in rows]
        + card.identifiers
        + card.errors
        + card.decisions
        + card.files
        + [card.first_human, card.last_outcome]
    )
    assert "plainwordmarker" in stored  # positive control: the text itself is indexed
    for secret in SECRETS:
        assert secret not in stored
    assert "sk-abcdef" not in stored  # not even the part that survives a cut
