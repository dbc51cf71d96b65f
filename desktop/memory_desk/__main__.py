import sys

from memory_desk.app import main

sys.exit(main())
