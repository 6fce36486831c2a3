import sys

from mpisim.cli import main

sys.exit(main())
