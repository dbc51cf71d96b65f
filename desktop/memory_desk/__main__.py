import sys

from memory_desk.launch import main

sys.exit(main())
