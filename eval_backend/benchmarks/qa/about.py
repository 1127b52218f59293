"""The QA benchmark's section of the board's About page: the choices made where its seed is silent, and how its
items cluster. The board composes it under the benchmark's title, after the sections every benchmark shares."""

ABOUT = """
Short answers, one chat turn, greedy; ranked by judge accuracy.
- **Choices where its seed is silent:** exact substring and word overlap exactly as the benchmark's scripts; the
  LLM judge of equivalence uses our own prompt (the seed gives none): a response is correct only when it commits
  to an answer equivalent to the golden one, not when it merely mentions it. The judge runs at temperature 0 where
  the judge model accepts it (recorded when not). A blank answer is wrong under every scorer and counted; a golden
  answer with no words counts as correct and is reported. A judgment that fails is counted, not scored. No Unicode
  normalisation unless asked (`--normalize nfc`), so the numbers reproduce the scripts. Headline: judge accuracy.
- **Clusters:** its questions stand alone, each its own cluster.
"""
"""QA's About text (Markdown, under its title's heading)."""
