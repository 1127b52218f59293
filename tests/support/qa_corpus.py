"""A large, deterministic responses corpus in seed 002's CSV shape (`question,answer,Domain,response`).

Rows in every Indic script plus English, with what real model output holds: golden answers
inside longer prose, reordered or inflected, missing; Indic and ASCII punctuation at word
ends; decomposed (NFD) text where NFC would change the verdict; trailing spaces in golden
answers; blank responses; empty and NA-like golden answers (`NA`, `None`, `nan`); numbers
with leading zeros; domains with surrounding whitespace and blank ones. For the verdict
regression test and the `qa-score` speed bench.
"""

from __future__ import annotations

import csv
import random
import unicodedata
from pathlib import Path
from typing import Iterator

HEADER = ("question", "answer", "Domain", "response")

WORDS = {
    "Hindi": ("गंगा", "नदी", "भारत", "राजधानी", "दिल्ली", "आगरा", "ताजमहल", "देवनागरी", "लिपि", "हिमालय", "ज़मीन", "क़िला"),
    "Bengali": ("কলকাতা", "নদী", "পদ্মা", "রবীন্দ্রনাথ", "ঠাকুর", "গীতাঞ্জলি", "বাংলা", "শহর", "ভাষা", "য়াত্রা"),
    "Tamil": ("சென்னை", "திருவள்ளுவர்", "திருக்குறள்", "காவிரி", "தமிழ்", "கோயில்", "மதுரை", "நதி", "சோழர்"),
    "Telugu": ("హైదరాబాద్", "గోదావరి", "కృష్ణా", "తెలుగు", "నది", "రాజధాని", "అమరావతి", "కవి"),
    "Kannada": ("ಬೆಂಗಳೂರು", "ಕಾವೇರಿ", "ಕನ್ನಡ", "ಮೈಸೂರು", "ಹಂಪಿ", "ನದಿ", "ಅರಮನೆ", "ಕವಿ"),
    "Malayalam": ("തിരുവനന്തപുരം", "പെരിയാർ", "മലയാളം", "കേരളം", "നദി", "കൊച്ചി", "കഥകളി"),
    "Gujarati": ("અમદાવાદ", "સાબરમતી", "ગુજરાતી", "ગાંધી", "નદી", "સોમનાથ", "મંદિર"),
    "Punjabi": ("ਅੰਮ੍ਰਿਤਸਰ", "ਸਤਲੁਜ", "ਪੰਜਾਬੀ", "ਗੁਰਮੁਖੀ", "ਦਰਿਆ", "ਹਰਿਮੰਦਰ", "ਸਾਹਿਬ"),
    "Odia": ("ଭୁବନେଶ୍ୱର", "ମହାନଦୀ", "ଓଡ଼ିଆ", "କୋଣାର୍କ", "ମନ୍ଦିର", "ପୁରୀ", "ନଦୀ"),
    "Urdu": ("لاہور", "دریا", "اردو", "غالب", "شاعر", "دہلی", "قلعہ", "زبان"),
    "English": ("Ruru", "Jataka", "Narmada", "valley", "Calcutta", "amalak", "Amalaka", "Chola", "ideals", "Delhi"),
}
PUNCTUATION = ("", "", "", ".", ",", "।", "॥", "?", "!", "۔", '"', "«", ")", "\U00011047")  # the last: Brahmi danda
RARE_WORD = "\U00020000\U00011047"
"""A word past the planes the scorer lists punctuation for (CJK extension B), ending in Brahmi punctuation."""
DOMAINS = ("Art", "History", "Geography", "Literature", "Science", "Art ", " Polity", "")
NA_LIKE = ("NA", "None", "null", "nan", "N/A", "")


def corpus_rows(count: int, seed: int = 2) -> Iterator[tuple[str, str, str, str]]:
    """`count` rows of (question, answer, Domain, response), the same for the same seed."""
    generator = random.Random(seed)
    languages = list(WORDS)
    for number in range(count):
        language = languages[number % len(languages)]
        yield _row(generator, language, number)


def write_corpus(path: Path, count: int, seed: int = 2) -> Path:
    """Write `corpus_rows(count, seed)` as a UTF-8 CSV with the seed's header; returns `path`."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(HEADER)
        writer.writerows(corpus_rows(count, seed))
    return path


def _row(generator: random.Random, language: str, number: int) -> tuple[str, str, str, str]:
    vocabulary = WORDS[language]
    golden = _golden(generator, vocabulary)
    question = f"[{language} #{number:07d}] " + " ".join(generator.choices(vocabulary, k=8)) + "?"
    response = _response(generator, vocabulary, golden)
    if generator.random() < 0.05:  # from another source: decomposed, so NFC would change the verdict
        response = unicodedata.normalize("NFD", response)
    return question, golden, generator.choice(DOMAINS), response


def _golden(generator: random.Random, vocabulary: tuple[str, ...]) -> str:
    roll = generator.random()
    if roll < 0.02:
        return generator.choice(NA_LIKE)
    if roll < 0.04:
        return f"{generator.randrange(10000):04d}"  # a number with its leading zeros
    golden = " ".join(generator.sample(vocabulary, k=generator.choice((1, 1, 2, 3))))
    if roll > 0.995:
        golden += " " + RARE_WORD
    return golden + " " if roll < 0.07 else golden  # a trailing space, which exact substring keeps


def _response(generator: random.Random, vocabulary: tuple[str, ...], golden: str) -> str:
    roll = generator.random()
    if roll < 0.03:
        return generator.choice(("", "   ", "\n"))
    prose = [word + generator.choice(PUNCTUATION) for word in generator.choices(vocabulary, k=generator.randint(6, 40))]
    if roll > 0.98:
        prose.append(RARE_WORD)
    golden_words = golden.split()
    if roll < 0.45:
        prose.insert(generator.randrange(len(prose) + 1), golden.strip())  # verbatim
    elif roll < 0.65:
        shuffled = generator.sample(golden_words, k=len(golden_words))
        prose[generator.randrange(len(prose)):0] = [w + generator.choice(PUNCTUATION) for w in shuffled]
    elif roll < 0.75:
        prose.insert(generator.randrange(len(prose) + 1), golden.strip().upper() + "ा")  # inflected
    return " ".join(prose)
