"""`app.py` with the test-only toy translation benchmark in the registry, as a fourth benchmark's module would
put it there: the board it serves is the app's own, with no tab code for the toy.

    python -m tests.support.toy_app     # as app.py, with TOY_DATASET naming the toy's dataset
"""

from __future__ import annotations

import app
from tests.support.toy_translation import registered


def main() -> None:
    with registered():
        app.main()


if __name__ == "__main__":
    main()
