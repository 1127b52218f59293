"""`python -m eval_backend`: the engine's CLI."""

import sys

from eval_backend.cli import main

# The guard keeps worker processes started with "spawn" (vLLM can) from running the CLI again.
if __name__ == "__main__":
    sys.exit(main())
