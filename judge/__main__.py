"""`python -m clinea.judge`: the same as `clinea judge` (the judge's
command as clinea.arena.judge_command composes it, with `--view`)."""
import sys

try:
    from clinea.arena.judge_command import main
except KeyboardInterrupt:  # Ctrl-C while the judge loads (a second on a busy machine): nothing started yet
    print("interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
