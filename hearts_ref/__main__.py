import sys

from hearts_ref.cli import main

sys.exit(main())
