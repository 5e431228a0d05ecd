"""`python -m clinea.judge`: the same as `clinea judge`."""
import sys

from clinea.judge.cli import main

sys.exit(main())
