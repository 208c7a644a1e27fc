import CatalogCLI

// The executable is only an entry point: every command lives in CatalogCLI.
CatalogCommand.main()
