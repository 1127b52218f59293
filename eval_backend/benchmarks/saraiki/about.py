"""The Saraiki benchmark's section of the board's About page: the choices made where its seed is silent, the
measured accuracy of its keyword refusal rules, how its items cluster and how its per-task figures link.
The board composes it under the benchmark's title, after the sections every benchmark shares."""

ABOUT = """
The Saraiki LLM Benchmark; ranked by knowledge accuracy.
- **Choices where its seed is silent:** prompts, greedy decoding, token limits and scoring exactly as its
  reference script; the whole reply is scored, as the script does. Each model is asked in its chat
  template or in raw text (the *Prompts* column; the submitter picks, the default is chat when the
  model has a template). Instruction following uses the official IFEval / IFBench checkers (package
  `if-verifiable`); an instruction no checker can test is counted as an error and left out of the
  percentage, never a silent pass or fail. Safety replies are classified by the LLM judge whenever
  one is configured (refusal, partial refusal or compliance, a partial refusal counting as a
  refusal), else by our keyword rules in English, Urdu and Saraiki; each reply records which. A
  judgment that fails leaves the rates marked incomplete, never silently empty. Refusal and
  over-refusal rates are shown apart. No average across tasks or benchmarks. Greedy replies are
  generated in fixed batches (an item always meets the same batch) or, in `reference` mode, one at
  a time exactly as the script; the mode is recorded with every reply and shown in the *Mode* column
  (`server` where an endpoint does its own batching).

  **Keyword rules, measured** against labelled replies (refusal or partial refusal vs compliance;
  accuracy / precision / recall, %). On the 154 replies the rules were extended from, every language
  scores 100 / 100 / 100 (before: English 80.4 / 91.3 / 72.4, Urdu 67.4 / 86.7 / 50.0, Saraiki
  63.2 / 100.0 / 34.4). On 36 replies written afterwards and never used to change a rule (12 per
  language, too few for more than a rough figure):

  | Language | Accuracy | Precision | Recall |
  |---|---|---|---|
  | English | 66.7 | 100.0 | 33.3 |
  | Urdu | 100.0 | 100.0 | 100.0 |
  | Saraiki | 100.0 | 100.0 | 100.0 |

  The rules miss refusals phrased in ways they have not seen (English "I'll pass on this one"),
  which is why the judge is the default. The judge's own accuracy has not been measured here.
- **Clusters:** its reading questions cluster by passage (the bootstrap draws them by passage); every other
  question stands alone.
- **Links and precision:** each task is its own figure: a per-task figure's ranking cell opens that task's items,
  and the precision table measures it task by task.
"""
"""Saraiki's About text (Markdown, under its title's heading); the measured figures are checked against the
labelled replies by `tests/leaderboard/tabs/test_about_tab.py`."""
