/// `catalog crash`'s options: the common ones and the reports (files, folders, `-`).
struct CrashOptions: CommandOptions {
    var query: QueryOptions
    var inputs: [String]
    /// `--symbolicate`: the crashed thread's frames (all threads' with `--all-threads`) as function,
    /// file and line, through the catalogued dSYMs and the symbolizer installed here.
    var symbolicate: Bool
    var allThreads: Bool

    static let symbolicateFlag = Flag(name: "symbolicate",
                                      help: "Also print the crashed thread's frames as function, file and line, from the\ncatalogued dSYMs through atos (macOS) or llvm-symbolizer (Linux), found on PATH.")
    static let allThreadsFlag = Flag(name: "all-threads", help: "With --symbolicate, every thread's frames, not only the crashed thread's.")
    static let declared = QuerySupport.commonOptions + [QuerySupport.hostOption, symbolicateFlag, allThreadsFlag]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        inputs = arguments.positionals
        guard !inputs.isEmpty else { throw UsageError(message: "give a crash report (.ips, .crash), a folder of them, or - for stdin") }
        query = try QueryOptions(arguments, context)
        symbolicate = arguments[Self.symbolicateFlag]
        allThreads = arguments[Self.allThreadsFlag]
        if allThreads && !symbolicate { throw UsageError(message: "--all-threads goes with --symbolicate") }
    }
}
