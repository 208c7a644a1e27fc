/// `catalog devices`'s options: the common ones and the device to look up, if any.
struct DevicesOptions: CommandOptions {
    var query: QueryOptions
    /// List the profiles and builds of this device instead of every device.
    var udid: String?

    static let declared = QuerySupport.commonOptions + [QuerySupport.asOfOption, QuerySupport.hostOption]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        query = try QueryOptions(arguments, context)
        udid = arguments.positionals.first
        if query.host != nil, udid == nil {
            throw UsageError(message: "--host goes with a UDID: devices are shared by every host")
        }
    }
}
