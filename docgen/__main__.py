import os
import sys

try:
    from docgen.cli.launch import main
except KeyboardInterrupt:  # Ctrl-C while docgen itself loads
    sys.stderr.write("docgen: interrupted\n")
    os._exit(130)

main()
