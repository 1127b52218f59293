"""Backends take each benchmark's prompt (chat or raw) and decoding (greedy, stop strings) as declared."""

from __future__ import annotations

from pathlib import Path

from eval_backend.benchmarks.prompting import Prompt
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.dataset_loader import DatasetSpec
from eval_backend.generation.base import cut_at_stop
from eval_backend.generation.openai_backend import request_kwargs
from eval_backend.generation.options import GenerationOptions
from eval_backend.generation.prompts import load_tokenizer, render_prompt
from eval_backend.generation.vllm_backend import sampling_kwargs
from eval_backend.pipeline import RunSpec, generate_phase, prepare_run
from eval_backend.run_folder import RunFolder
from tests.support.qa_dataset import write_qa_dataset


def test_qa_options_are_greedy_and_reach_every_backend_so() -> None:
    options = GenerationOptions.for_benchmark(INDIC_QA, "org/m", stop=("\n\n",))
    assert (options.temperature, options.max_tokens) == (0.0, INDIC_QA.sampling.max_tokens)
    assert sampling_kwargs(options, 100)["temperature"] == 0.0
    assert sampling_kwargs(options, 100)["stop"] == ["\n\n"]
    sent = request_kwargs(options)
    assert sent["temperature"] == 0.0 and sent["stop"] == ["\n\n"]
    assert "extra_body" not in sent  # no top_k when it is off: other servers refuse unknown fields
    assert options.record_params()["stop"] == ("\n\n",)


def test_the_writing_bench_request_is_unchanged() -> None:
    sent = request_kwargs(GenerationOptions(model="org/m"))
    assert sent["extra_body"] == {"top_k": 20} and "stop" not in sent


def test_an_answer_is_cut_at_the_first_stop_string() -> None:
    assert cut_at_stop("Paris\n\nQ: next", ["\n\n", "Q:"]) == ("Paris", True)
    assert cut_at_stop("Paris", ["\n\n"]) == ("Paris", False)
    assert cut_at_stop("Paris", []) == ("Paris", False)


def test_a_chat_prompt_uses_the_template_and_a_raw_prompt_is_sent_as_written(tiny_model: Path) -> None:
    tokenizer = load_tokenizer(GenerationOptions(model=str(tiny_model)))
    chat = render_prompt(tokenizer, Prompt.user("राजधानी?"))
    assert "राजधानी?" in chat and chat != "राजधानी?"
    assert render_prompt(tokenizer, Prompt.raw("Q: 2+2\nA:")) == "Q: 2+2\nA:"


def test_qa_questions_are_generated_greedily_on_the_transformers_backend(tiny_model: Path, tmp_path: Path) -> None:
    dataset = write_qa_dataset(tmp_path / "qa")
    answers = []
    for attempt in range(2):
        spec = RunSpec(INDIC_QA, DatasetSpec(str(dataset)), RunFolder(tmp_path / f"run-{attempt}"), ["hindi"])
        items = prepare_run(spec, {"model": str(tiny_model)})
        options = GenerationOptions.for_benchmark(INDIC_QA, str(tiny_model), backend="transformers", max_tokens=6,
                                                  seed=attempt)
        generate_phase(spec, items, options)
        answers.append({key: r.response for key, r in spec.folder.read_responses().items()})
        assert all(r.generation["temperature"] == 0.0 for r in spec.folder.read_responses().values())
    assert len(answers[0]) == 3
    assert answers[0] == answers[1]  # greedy: the seed changes nothing
