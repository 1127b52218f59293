"""Seed 002's verdict tables, row for row: the specification of the QA benchmark's scorers."""

# Seed 002, "1. Exact substring": golden, response, verdict.
EXACT_TABLE = [
    ("Ruru Jataka", "The answer is the Ruru Jataka, depicted at Bharhut.", True),  # surrounding prose irrelevant
    ("ruru jataka", "RURU JATAKA", True),  # case-insensitive
    ("गंगा", "गंगा नदी", True),  # works for Devanagari
    ("Ruru Jataka", "Jataka Ruru", False),  # order matters
    ("Narmada valley", "the Narmada river valley", False),  # must be contiguous
    ("Delhi ", "Delhi", False),  # golden answer is not stripped
    ("amalak", "Amalaka", True),  # matches inside a longer word
    ("No", "There is **no** such temple", True),  # false positive: no word boundary
    ("Delhi", "Delhi is not the answer; it's Mumbai", True),  # false positive: mention is not assertion
]

# Seed 002, "2. Word overlap": golden, response, verdict, matching / total.
OVERLAP_TABLE = [
    ("Narmada valley", "valley Narmada", True, 2, 2),  # order is irrelevant
    ("Narmada valley", "the Narmada river valley in India", True, 2, 2),  # insertions are free
    ("Narmada valley", "Narmada", False, 1, 2),  # every golden word required
    ("1947 to 1947", "it was 1947", False, 1, 2),  # duplicates collapse to a set
    ("Amalaka", "amalak", False, 0, 1),  # whole-token match, no stemming
    ("Chola ideals", "Chola and Hoysala ideals", True, 2, 2),  # false positive: different claim
]

# Seed 002, "Real disagreements": exact passes and overlap fails, then the reverse.
EXACT_ONLY_TABLE = [
    ("amalak", "Amalaka"),
    ("deul", "Deula"),
    ("mithun", "Mithuna"),
    ("Dipankar", "Dipankara Buddha"),
    ("scroll painting", "Scroll paintings"),
]
OVERLAP_ONLY_TABLE = [("Narmada valley", "Narmada River valley"), ("Chola ideals", "Chola and Hoysala ideals")]
