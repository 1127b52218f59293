"""Seed 002's `exact_substring.py`, written literally from its spec: the reference `qa-score` is timed against.

pandas only, as the seed says. The golden answer must appear in the response as one
contiguous, case-insensitive run (`answer.lower() in response.lower()`); a blank response
scores incorrect and is counted; an empty golden answer is warned about on stderr. Cells are
read as text (`keep_default_na=False`), the reading `qa-score` documents.

    python bench/seed_002/exact_substring.py --responses my_model_english.csv [--out scored.csv]
"""

import argparse
import sys

import pandas as pd


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
    df["is_correct"] = [
        not blank and answer.lower() in response.lower()
        for answer, response, blank in zip(df["answer"], df["response"], df["blank_response"])
    ]

    for domain, group in df.groupby("Domain"):
        print(f"{domain}: {group['is_correct'].mean() * 100:.2f}% ({group['is_correct'].sum()}/{len(group)})")
    print(f"Combined: {df['is_correct'].mean() * 100:.2f}% ({df['is_correct'].sum()}/{len(df)})")
    print(f"Blank responses: {df['blank_response'].sum()}")
    if args.out:
        df.to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
