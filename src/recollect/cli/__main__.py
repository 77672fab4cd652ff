from recollect.cli import main

main()
