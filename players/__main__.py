import sys

from clinea.players.registry import main

sys.exit(main())
