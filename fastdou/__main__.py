"""``python -m fastdou``: the command line."""

import sys

from fastdou.cli import main

sys.exit(main())
