/// `catalog completions bash|zsh|fish`: prints a completion script for the shell.
enum CompletionsCommand: Command {
    static let name = "completions"
    static let abstract = "Print a shell completion script (bash, zsh or fish)."
    static let discussion: String? = """
        bash:  catalog completions bash > ~/.local/share/bash-completion/completions/catalog
        zsh:   catalog completions zsh > "${fpath[1]}/_catalog"   (then restart zsh)
        fish:  catalog completions fish > ~/.config/fish/completions/catalog.fish
        """
    static let arguments = [ArgumentSpec(name: "shell", help: "bash, zsh or fish.", choices: ShellCompletion.allCases.map(\.rawValue))]
    static let examples = [
        "catalog completions zsh > ~/.zfunc/_catalog",
        "catalog completions bash > /etc/bash_completion.d/catalog",
    ]

    static func run(_ options: CompletionsOptions, _ context: CommandContext) throws -> Int32 {
        context.out(options.shell.script(for: CatalogCommand.commands))
        return ExitStatus.success
    }
}
