"""`python -m clinea.judge`: the same as `clinea judge`."""
import sys

try:
    from clinea.judge.cli import main
except KeyboardInterrupt:  # Ctrl-C while the judge loads (a second on a busy machine): nothing started yet
    print("interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
