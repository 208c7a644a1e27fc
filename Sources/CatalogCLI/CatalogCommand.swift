import Foundation

/// The `catalog` entry point: dispatches to one subcommand and exits with its status.
public enum CatalogCommand {
    public static func main() {
        exit(0)
    }
}
