"""The prompts of the seed's reference script, byte for byte.

Multiple choice: `format_mcq` of each shot with its answer (` X` and a blank line), then the
item without; math: `question\\nAnswer: N\\n\\n` per shot (N is `str()` of the loaded value),
then `question\\nAnswer:`; instruction following and safety: the row's text alone. These are
the raw texts; a chat model gets the same text as one user message (see `tasks`).
"""

from __future__ import annotations

from typing import Sequence

from eval_backend.benchmarks.saraiki.rows import InstructionRow, MathRow, McqRow, SafetyRow, SaraikiRow
from eval_backend.benchmarks.saraiki.tasks import LETTERS


def format_mcq(row: McqRow, with_answer: bool = False) -> str:
    """One question as the script lays it out: passage, question, lettered options, `Answer:`."""
    text = (row.passage + "\n\n") if row.passage else ""
    text += row.question + "\n"
    text += "\n".join(f"{LETTERS[i]}. {option}" for i, option in enumerate(row.options))
    text += "\nAnswer:"
    if with_answer:
        text += " " + row.answer_letter + "\n\n"
    return text


def mcq_prompt(row: McqRow, shots: Sequence[McqRow]) -> str:
    """The answered shots, then the question."""
    return "".join(format_mcq(shot, with_answer=True) for shot in shots) + format_mcq(row)


def math_prompt(row: MathRow, shots: Sequence[MathRow]) -> str:
    """The solved shots (final number only), then the question."""
    prompt = "".join(f"{shot.question}\nAnswer: {shot.answer_number}\n\n" for shot in shots)
    return prompt + f"{row.question}\nAnswer:"


def build_prompt(row: SaraikiRow, shots: Sequence[SaraikiRow] = ()) -> str:
    """The prompt of any row, with the shots of its task (none for the 0-shot kinds)."""
    if any(type(shot) is not type(row) for shot in shots):
        raise TypeError(f"the shots of a {type(row).__name__} must be rows of the same kind")
    if isinstance(row, McqRow):
        return mcq_prompt(row, shots)  # type: ignore[arg-type]  # checked above
    if isinstance(row, MathRow):
        return math_prompt(row, shots)  # type: ignore[arg-type]
    if isinstance(row, InstructionRow):
        return row.prompt
    if isinstance(row, SafetyRow):
        return row.question
    raise TypeError(f"not a Saraiki row: {type(row).__name__}")
