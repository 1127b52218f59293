import sys

from eval_backend.cli import main

sys.exit(main())
