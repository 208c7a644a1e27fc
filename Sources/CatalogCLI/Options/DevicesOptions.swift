/// `catalog devices`'s options: the common ones and the device to look up, if any.
struct DevicesOptions: CommandOptions {
    var query: QueryOptions
    /// List the profiles and builds of this device instead of every device.
    var udid: String?

    static let declared = QuerySupport.commonOptions + [QuerySupport.asOfOption, QuerySupport.hostOption]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        query = try QueryOptions(arguments, context)
        udid = arguments.positionals.first
        if let udid, !Self.isUDID(udid) {
            throw UsageError(message: "'\(udid)' is not a device UDID: Apple writes them as 40 hex digits (older iPhones and "
                             + "iPads), 8 hex digits, a dash and 16 more (iPhone XS and later), or a UUID (Macs)")
        }
        if query.host != nil, udid == nil {
            throw UsageError(message: "--host goes with a UDID: devices are shared by every host")
        }
    }

    /// The forms Apple writes device identifiers in: 40 hex digits; `00008030-001A2B3C4D5E6F70`
    /// (8, a dash, 16); a UUID (`6F1C2E6A-1B0E-4C41-9E53-2D3B4A5C6D7E`), any case.
    static func isUDID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
        let hex = text.allSatisfy { $0 == "-" || $0.isHexDigit }
        return hex && (groups == [40] || groups == [8, 16] || groups == [8, 4, 4, 4, 12])
    }
}
