"""Write Indic WritingBench-shaped datasets in the real Hugging Face Hub folder layout.

The folder produced here is what ``datasets.load_dataset(folder, config, split="test")`` and
``datasets.get_dataset_config_names(folder)`` read, exactly as they would read the published
``sarvam/indic_writing_bench_v1`` repository::

    root/README.md                                   YAML front matter with ``configs:``
    root/<config>/test-00000-of-00001.parquet        one parquet file per config

Everything is generated offline and deterministically from a seed. Tests that need malformed
items build rows with :func:`make_rows`, edit the dicts, and write them back with
:func:`write_rows`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

__all__ = [
    "BANDS",
    "CHECKLIST_FIELDS",
    "FULL_SIZE_CONFIGS",
    "SCHEMA",
    "VARIANTS",
    "DatasetShape",
    "full_size_shape",
    "make_rows",
    "parquet_path",
    "read_rows",
    "write_readme",
    "write_rows",
    "write_writing_bench_dataset",
]

SPLIT = "test"
PARQUET_NAME = "test-00000-of-00001.parquet"
VARIANTS: tuple[str, ...] = ("native", "code_mixed", "romanized")
BANDS: tuple[str, ...] = ("1-2", "3-4", "5-6", "7-8", "9-10")
# Field order matters: the judge serialises each entry with json.dumps in dataset order.
CHECKLIST_FIELDS: tuple[str, ...] = ("name", "criteria_description", *BANDS)
CHECKLIST_LENGTH = 5

REFERENCE_TYPE = pa.struct(
    [(name, pa.string()) for name in ("title", "url", "source_language", "content")]
)
CHECKLIST_TYPE = pa.list_(pa.struct([(name, pa.string()) for name in CHECKLIST_FIELDS]))
SCHEMA = pa.schema(
    [
        ("index", pa.int64()),
        ("id", pa.string()),
        ("domain", pa.string()),
        ("subdomain", pa.string()),
        ("language", pa.string()),
        ("variant", pa.string()),
        ("is_code_mixed", pa.bool_()),
        ("is_romanized", pa.bool_()),
        ("prompt", pa.string()),
        ("query", pa.string()),
        ("reference", REFERENCE_TYPE),
        ("checklist", CHECKLIST_TYPE),
    ]
)

# The published benchmark's configs and sizes (seed 000 / DESIGN.md).
FULL_SIZE_CONFIGS: dict[str, int] = {
    "Assamese": 281,
    "Bengali": 281,
    "Gujarati": 280,
    "Hindi": 281,
    "Kannada": 281,
    "Malayalam": 280,
    "Marathi": 281,
    "Odia": 281,
    "Punjabi": 281,
    "Tamil": 281,
    "Telugu": 281,
    "english_original": 555,
    "indian_english": 281,
}


@dataclass(frozen=True)
class DatasetShape:
    """How many items each config gets, how long each ``query`` is, and the generation seed."""

    configs: Mapping[str, int] = field(
        default_factory=lambda: {"Hindi": 6, "Tamil": 5, "english_original": 4}
    )
    query_chars: int = 400
    seed: int = 0


def full_size_shape(query_chars: int = 20_000, seed: int = 0) -> DatasetShape:
    """The real benchmark's 13 configs and item counts (3,925 items), for benchmarks."""
    return DatasetShape(configs=dict(FULL_SIZE_CONFIGS), query_chars=query_chars, seed=seed)


# --------------------------------------------------------------------------------------------
# Text material. Each language has a writing request and a few sentences of reference text in
# its own script, plus romanized and code-mixed renderings of the request, so that non-ASCII
# text, and every variant, flows through the pipeline under test.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Language:
    request: str  # native-script writing request
    romanized: str  # the same request transliterated to Roman script
    code_mixed: str  # Roman script with everyday English words mixed in
    sentences: tuple[str, ...]  # native-script reference material
    source_language: str


_ENGLISH_SENTENCES = (
    "The monsoon arrived two weeks early this year, and farmers across the plains began sowing.",
    "Local libraries have started lending tablets so that students can read digital textbooks.",
    "The city council approved a new plan to restore the old stepwell near the market.",
    "Small businesses reported a steady rise in online orders during the festival season.",
)

_LANGUAGES: dict[str, _Language] = {
    "Hindi": _Language(
        request="कृपया नीचे दी गई सामग्री के आधार पर एक लेख लिखिए।",
        romanized="Kripya neeche di gayi samagri ke aadhar par ek lekh likhiye.",
        code_mixed="Please neeche diye gaye material ke basis par ek article likhiye.",
        sentences=(
            "भारत की विविधता उसकी सबसे बड़ी ताकत है।",
            "हर राज्य की अपनी भाषा, भोजन और परंपरा है।",
            "इस वर्ष मानसून समय से पहले आया और किसानों ने बुवाई शुरू कर दी।",
        ),
        source_language="Hindi",
    ),
    "Marathi": _Language(
        request="कृपया खालील माहितीच्या आधारे एक लेख लिहा.",
        romanized="Krupaya khalil mahitichya aadhare ek lekh liha.",
        code_mixed="Please khalil information vaparun ek article liha.",
        sentences=(
            "पावसाळ्यात कोकणातील निसर्ग अधिकच सुंदर दिसतो.",
            "पुण्यातील ग्रंथालयांमध्ये विद्यार्थ्यांची गर्दी वाढली आहे.",
        ),
        source_language="Marathi",
    ),
    "Bengali": _Language(
        request="অনুগ্রহ করে নিচের তথ্যের ভিত্তিতে একটি প্রবন্ধ লিখুন।",
        romanized="Onugroho kore nicher tothyer bhittite ekti probondho likhun.",
        code_mixed="Please nicher information use kore ekta article likhun.",
        sentences=(
            "কলকাতার বইমেলা প্রতি বছর লক্ষ লক্ষ পাঠককে আকর্ষণ করে।",
            "গ্রামের বাজারে এখন অনলাইনে টাকা দেওয়া যায়।",
        ),
        source_language="Bengali",
    ),
    "Assamese": _Language(
        request="অনুগ্ৰহ কৰি তলৰ তথ্যৰ ভিত্তিত এটা প্ৰবন্ধ লিখক।",
        romanized="Onugroh kori tolor tothyor bhittit eta probondho likhok.",
        code_mixed="Please tolor information use kori eta article likhok.",
        sentences=(
            "অসমৰ বিহু উৎসৱে সকলো মানুহক একত্ৰিত কৰে।",
            "ব্ৰহ্মপুত্ৰৰ পাৰত চাহ বাগিচাসমূহ বিস্তৃত হৈ আছে।",
        ),
        source_language="Assamese",
    ),
    "Gujarati": _Language(
        request="કૃપા કરીને નીચેની માહિતીના આધારે એક લેખ લખો.",
        romanized="Krupa karine nicheni mahitina aadhare ek lekh lakho.",
        code_mixed="Please nicheni information use kari ne ek article lakho.",
        sentences=(
            "ગુજરાતના લોકો વેપાર અને આતિથ્ય માટે જાણીતા છે.",
            "નવરાત્રિ દરમિયાન આખું રાજ્ય ગરબામાં ઝૂમે છે.",
        ),
        source_language="Gujarati",
    ),
    "Kannada": _Language(
        request="ದಯವಿಟ್ಟು ಕೆಳಗಿನ ಮಾಹಿತಿಯ ಆಧಾರದ ಮೇಲೆ ಒಂದು ಲೇಖನ ಬರೆಯಿರಿ.",
        romanized="Dayavittu kelagina mahitiya aadharada mele ondu lekhana bareyiri.",
        code_mixed="Please kelagina information use maadi ondu article bareyiri.",
        sentences=(
            "ಬೆಂಗಳೂರು ತಂತ್ರಜ್ಞಾನ ಕ್ಷೇತ್ರದಲ್ಲಿ ವೇಗವಾಗಿ ಬೆಳೆಯುತ್ತಿದೆ.",
            "ಮೈಸೂರು ದಸರಾ ಉತ್ಸವ ವಿಶ್ವಪ್ರಸಿದ್ಧವಾಗಿದೆ.",
        ),
        source_language="Kannada",
    ),
    "Malayalam": _Language(
        request="ദയവായി താഴെ നൽകിയിരിക്കുന്ന വിവരങ്ങളെ ആസ്പദമാക്കി ഒരു ലേഖനം എഴുതുക.",
        romanized=(
            "Dayavayi thazhe nalkiyirikkunna vivarangale aaspadamaakki oru lekhanam ezhuthuka."
        ),
        code_mixed="Please thazhe ulla information use cheythu oru article ezhuthuka.",
        sentences=(
            "കേരളത്തിലെ കായലുകൾ സഞ്ചാരികളെ ആകർഷിക്കുന്നു.",
            "ഓണക്കാലത്ത് എല്ലാ വീടുകളിലും പൂക്കളം ഒരുക്കുന്നു.",
        ),
        source_language="Malayalam",
    ),
    "Odia": _Language(
        request="ଦୟାକରି ତଳେ ଦିଆଯାଇଥିବା ତଥ୍ୟ ଆଧାରରେ ଏକ ପ୍ରବନ୍ଧ ଲେଖନ୍ତୁ।",
        romanized="Dayakari tale diajaithiba tathya adharare eka prabandha lekhantu.",
        code_mixed="Please tale thiba information use kari eka article lekhantu.",
        sentences=(
            "ଓଡ଼ିଶାର ରଥଯାତ୍ରା ବିଶ୍ୱ ପ୍ରସିଦ୍ଧ ଉତ୍ସବ।",
            "କୋଣାର୍କ ମନ୍ଦିର ପ୍ରାଚୀନ ସ୍ଥାପତ୍ୟର ଏକ ଉଦାହରଣ।",
        ),
        source_language="Odia",
    ),
    "Punjabi": _Language(
        request="ਕਿਰਪਾ ਕਰਕੇ ਹੇਠਾਂ ਦਿੱਤੀ ਜਾਣਕਾਰੀ ਦੇ ਆਧਾਰ 'ਤੇ ਇੱਕ ਲੇਖ ਲਿਖੋ।",
        romanized="Kirpa karke hethan ditti jaankari de aadhar te ikk lekh likho.",
        code_mixed="Please hethan ditti information use karke ikk article likho.",
        sentences=(
            "ਪੰਜਾਬ ਦੇ ਖੇਤ ਦੇਸ਼ ਨੂੰ ਅਨਾਜ ਦਿੰਦੇ ਹਨ।",
            "ਵਿਸਾਖੀ ਦੇ ਮੇਲੇ ਵਿੱਚ ਭੰਗੜਾ ਪਾਇਆ ਜਾਂਦਾ ਹੈ।",
        ),
        source_language="Punjabi",
    ),
    "Tamil": _Language(
        request="கீழே கொடுக்கப்பட்டுள்ள தகவல்களின் அடிப்படையில் ஒரு கட்டுரை எழுதுங்கள்.",
        romanized="Keezhe kodukkappattulla thagavalgalin adippadaiyil oru katturai ezhuthungal.",
        code_mixed="Please keezhe irukkira information use panni oru article ezhuthungal.",
        sentences=(
            "தமிழ்நாட்டின் கோவில்கள் பழமையான கட்டிடக் கலைக்கு சான்றாக உள்ளன.",
            "பொங்கல் பண்டிகை அறுவடைக் காலத்தின் மகிழ்ச்சியைக் கொண்டாடுகிறது.",
        ),
        source_language="Tamil",
    ),
    "Telugu": _Language(
        request="దయచేసి క్రింద ఇచ్చిన సమాచారం ఆధారంగా ఒక వ్యాసం రాయండి.",
        romanized="Dayachesi krinda ichchina samacharam aadharanga oka vyasam rayandi.",
        code_mixed="Please krinda unna information use chesi oka article rayandi.",
        sentences=(
            "హైదరాబాద్ బిర్యానీ ప్రపంచవ్యాప్తంగా ప్రసిద్ధి చెందింది.",
            "గోదావరి నది తీరంలో పంటలు సమృద్ధిగా పండుతాయి.",
        ),
        source_language="Telugu",
    ),
    "english_original": _Language(
        request="Write an article based on the reference material below.",
        romanized="Write an article based on the reference material below.",
        code_mixed="Write an article based on the reference material below.",
        sentences=_ENGLISH_SENTENCES,
        source_language="English",
    ),
    "indian_english": _Language(
        request="Kindly prepare an article based on the below reference material itself.",
        romanized="Kindly prepare an article based on the below reference material itself.",
        code_mixed="Kindly prepare an article based on the below reference material itself.",
        sentences=_ENGLISH_SENTENCES,
        source_language="English",
    ),
}

_DOMAINS: dict[str, tuple[str, str]] = {
    "Academic & Engineering": ("Paper Outline", "Technical Documentation"),
    "Finance & Business": ("Market Analysis", "Business Email"),
    "Politics & Law": ("Policy Brief", "Legal Opinion"),
    "Literature & Arts": ("Short Story", "Book Review"),
}
_SUBDOMAINS: tuple[tuple[str, str], ...] = tuple(
    (domain, sub) for domain, subs in _DOMAINS.items() for sub in subs
)

_CRITERIA: tuple[tuple[str, str], ...] = (
    ("Task Fulfilment", "the {sub} completes every part of the request"),
    ("Grounding in Reference", "the claims in the {sub} are supported by the reference material"),
    ("Structure and Coherence", "the {sub} is organised logically with clear transitions"),
    ("Language and Register", "the language is fluent and the register suits a {sub}"),
    ("Depth and Specificity", "the {sub} gives concrete details rather than generalities"),
)
_BAND_TEXT: dict[str, str] = {
    "1-2": "Critical failure: the response does not show that {what}.",
    "3-4": "Major gaps: the response only partly shows that {what}.",
    "5-6": "Adequate: the response shows that {what}, with noticeable lapses.",
    "7-8": "Strong: the response shows that {what}, with minor lapses.",
    "9-10": "Excellent: the response fully shows that {what}, without flaws.",
}


def _language_for(config: str) -> _Language:
    """Material for a config; unknown configs (tests may invent some) reuse Hindi's script."""
    return _LANGUAGES.get(config, _LANGUAGES["Hindi"])


def _padding_text(language: _Language, min_chars: int, rng: random.Random) -> str:
    """Reference prose at least ``min_chars`` long, built once per config and sliced per row."""
    sentences = list(language.sentences) + list(_ENGLISH_SENTENCES[:2])
    rng.shuffle(sentences)
    block = " ".join(sentences) + "\n"
    return block * (min_chars // len(block) + 2)


def _sentence_starts(text: str) -> list[int]:
    """Offsets in the first block of ``text`` where a sentence begins."""
    block = text[: text.index("\n") + 1]
    return [0] + [i + 2 for i, ch in enumerate(block[:-2]) if ch in ".।" and block[i + 1] == " "]


def _slice_at_space(text: str, start: int, length: int) -> str:
    """``length`` characters of ``text`` from ``start``, trimmed back to a word boundary.

    Cutting between words keeps combining marks of Indic scripts attached to their base letter.
    """
    piece = text[start : start + length]
    cut = piece.rfind(" ")
    return piece[:cut] if cut > length // 2 else piece


def _checklist(subdomain: str, item_id: str) -> list[dict[str, str]]:
    """A 5-criterion rubric in the published field order; descriptions name the item."""
    entries = []
    for name, description in _CRITERIA:
        what = description.format(sub=subdomain.lower())
        entry = {"name": name, "criteria_description": f"Checks that {what} (item {item_id})."}
        entry.update({band: text.format(what=what) for band, text in _BAND_TEXT.items()})
        entries.append(entry)
    return entries


def _prompt(language: _Language, variant: str, subdomain: str) -> str:
    """The writing request in the given rendering, naming the task type in English."""
    text = {"native": language.request, "romanized": language.romanized}.get(
        variant, language.code_mixed
    )
    return f"{text} ({subdomain})"


def make_rows(
    config: str,
    n: int,
    *,
    query_chars: int = 400,
    seed: int = 0,
    start_index: int = 0,
) -> list[dict[str, Any]]:
    """Build ``n`` realistic benchmark rows for ``config`` as plain dicts in schema order.

    Variants cycle native, code_mixed, romanized by index; domain and subdomain cycle over a
    seeded shuffle of 4 domains x 2 subdomains; ids look like ``Hindi-0003``. The ``query`` is
    the prompt, a blank line, and the reference content, about ``query_chars`` characters in all.
    """
    language = _language_for(config)
    rng = random.Random(f"{seed}:{config}")  # str seeds are hashed stably, unlike hash()
    subdomains = list(_SUBDOMAINS)
    rng.shuffle(subdomains)
    padding = _padding_text(language, query_chars, rng)
    starts = _sentence_starts(padding)
    rows = []
    for index in range(start_index, start_index + n):
        rows.append(_row(config, language, index, subdomains, padding, starts, query_chars))
    return rows


def _row(
    config: str,
    language: _Language,
    index: int,
    subdomains: Sequence[tuple[str, str]],
    padding: str,
    starts: Sequence[int],
    query_chars: int,
) -> dict[str, Any]:
    """One row; the reference content starts at a different sentence for each index."""
    variant = VARIANTS[index % len(VARIANTS)]
    domain, subdomain = subdomains[index % len(subdomains)]
    item_id = f"{config}-{index:04d}"
    prompt = _prompt(language, variant, subdomain)
    title = f"{subdomain} source {index:04d}"
    offset = starts[index % len(starts)]
    body = _slice_at_space(padding, offset, max(query_chars - len(prompt) - len(title) - 3, 1))
    content = f"{title}\n{body}"
    return {
        "index": index,
        "id": item_id,
        "domain": domain,
        "subdomain": subdomain,
        "language": config,
        "variant": variant,
        "is_code_mixed": variant == "code_mixed",
        "is_romanized": variant == "romanized",
        "prompt": prompt,
        "query": f"{prompt}\n\n{content}",
        "reference": {
            "title": title,
            "url": f"https://example.org/{config.lower()}/{index:04d}",
            "source_language": language.source_language,
            "content": content,
        },
        "checklist": _checklist(subdomain, item_id),
    }


def parquet_path(root: Path, config: str) -> Path:
    """Where the single test-split parquet file of ``config`` lives under ``root``."""
    return Path(root) / config / PARQUET_NAME


def write_rows(
    root: Path,
    config: str,
    rows: Iterable[Mapping[str, Any]],
    *,
    schema: pa.Schema = SCHEMA,
) -> Path:
    """Write ``rows`` as the parquet of ``config`` (replacing it) and refresh ``README.md``.

    Keys missing from a row, or from a checklist entry, are written as nulls, which is how a
    parquet file with a fixed schema represents an absent value. Pass another ``schema`` to
    write deliberately non-conforming data (an extra column, a missing band field...).
    """
    rows = list(rows)
    columns = {name: [row.get(name) for row in rows] for name in schema.names}
    # pa.array converts each whole column in C++, which keeps the full-size shape fast.
    table = pa.Table.from_pydict(columns, schema=schema)
    path = parquet_path(root, config)
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)
    write_readme(root)
    return path


def read_rows(root: Path, config: str) -> list[dict[str, Any]]:
    """Read a config's rows back as dicts with pyarrow (no ``datasets`` cache involved)."""
    return pq.read_table(parquet_path(root, config)).to_pylist()


def write_readme(root: Path, configs: Sequence[str] | None = None) -> Path:
    """Write ``README.md`` whose YAML ``configs:`` lists ``configs`` (default: every parquet).

    The YAML is written by hand rather than with a YAML library because its shape is fixed
    and config names are plain identifiers.
    """
    root = Path(root)
    if configs is None:
        configs = sorted(p.parent.name for p in root.glob(f"*/{PARQUET_NAME}"))
    lines = ["---", "configs:"]
    for config in configs:
        lines += [
            f"- config_name: {config}",
            "  data_files:",
            f"  - split: {SPLIT}",
            f"    path: {config}/{PARQUET_NAME}",
        ]
    lines += ["---", "", "# Indic WritingBench (offline test copy)", ""]
    path = root / "README.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def write_writing_bench_dataset(root: Path, shape: DatasetShape | None = None) -> Path:
    """Write a complete dataset folder for ``shape`` (default: 3 small configs) and return it."""
    shape = shape or DatasetShape()
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    for config, n in shape.configs.items():
        rows = make_rows(config, n, query_chars=shape.query_chars, seed=shape.seed)
        write_rows(root, config, rows)
    write_readme(root, list(shape.configs))
    return root


if __name__ == "__main__":  # pragma: no cover - manual check: python -m tests.support.hub_dataset
    import sys
    import tempfile
    import time

    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        full = len(sys.argv) > 1 and sys.argv[1] == "full"
        folder = write_writing_bench_dataset(Path(tmp), full_size_shape() if full else None)
        print(f"wrote {folder} in {time.perf_counter() - started:.2f}s")
        print(read_rows(folder, "Hindi")[1]["query"][:200])
