"""The evaluation engine: load a benchmark, generate, judge, score, store. Never imports the web app."""
