import sys

from clinea.main import main

sys.exit(main())
