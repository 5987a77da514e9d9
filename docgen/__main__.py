from docgen.cli import main

main()
