from latentlab.cli import main

raise SystemExit(main())
