/// A failure a command reports as `error: …` with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    /// Lines printed under the message, indented: candidates of an ambiguous lookup.
    var details: [String] = []
    init(_ description: String, details: [String] = []) {
        self.description = description
        self.details = details
    }
}
