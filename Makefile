# The two commands a newcomer needs: `make app` (install, then run the app) and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: app test install browser

$(STAMP): requirements.txt requirements-dev.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

# Browser tests drive Debian's Chromium (never a downloaded browser build).
browser:
	@command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }

app: $(STAMP)
	$(PY) app.py

test: $(STAMP) browser
	$(PY) -m pytest
