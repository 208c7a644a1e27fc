/// `catalog completions`'s only argument: the shell.
struct CompletionsOptions: CommandOptions {
    var shell: ShellCompletion

    static let declared: [any OptionHandle] = []

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let text = arguments.positionals[0]
        guard let shell = ShellCompletion(rawValue: text) else {
            throw UsageError(message: "<shell> must be one of bash, zsh, fish, got '\(text)'")
        }
        self.shell = shell
    }
}
