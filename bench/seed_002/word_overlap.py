"""Seed 002's `word_overlap.py`, written literally from its spec: the reference `qa-score` is timed against.

pandas only, as the seed says. Both sides are lowercased, split on whitespace, stripped of
leading and trailing punctuation and compared as sets: correct when every golden word is in
the response (`set(golden_words) <= set(response_words)`), with `matching_words` and
`total_golden_words` as partial credit. A blank response scores incorrect and is counted; an
empty golden answer is warned about on stderr. Cells are read as text (`keep_default_na=False`).

    python bench/seed_002/word_overlap.py --responses my_model_english.csv [--out scored.csv]
"""

import argparse
import string
import sys

import pandas as pd


def words(text: str) -> set[str]:
    stripped = (word.strip(string.punctuation) for word in text.lower().split())
    return {word for word in stripped if word}


def score(answer: str, response: str, blank: bool) -> tuple[bool, int, int]:
    golden_words, response_words = words(answer), words(response)
    matching = len(golden_words & response_words)
    return not blank and set(golden_words) <= set(response_words), matching, len(golden_words)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--responses", required=True)
    parser.add_argument("--out")
    args = parser.parse_args()

    df = pd.read_csv(args.responses, dtype=str, keep_default_na=False)
    empty = (df["answer"].str.strip() == "").sum()
    if empty:
        print(f"warning: {empty} rows have an empty golden answer, which scores correct", file=sys.stderr)
    df["blank_response"] = df["response"].str.strip() == ""
    scores = [score(a, r, b) for a, r, b in zip(df["answer"], df["response"], df["blank_response"])]
    df["is_correct"], df["matching_words"], df["total_golden_words"] = map(list, zip(*scores))

    for domain, group in df.groupby("Domain"):
        print(f"{domain}: {group['is_correct'].mean() * 100:.2f}% ({group['is_correct'].sum()}/{len(group)})")
    print(f"Combined: {df['is_correct'].mean() * 100:.2f}% ({df['is_correct'].sum()}/{len(df)})")
    print(f"Blank responses: {df['blank_response'].sum()}")
    if args.out:
        df.to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
