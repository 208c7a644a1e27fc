/// Something wrong with a code signature found while reading it, before it is tied to a bundle:
/// a part that could not be read, a page or blob that does not match its hash, a CMS signature
/// that does not verify. ``BuildBinaryReader`` turns each into a ``SigningProblem``.
public struct SignatureFinding: Sendable, Equatable, Hashable {
    public var code: SigningProblem.Code
    /// One sentence for a person, naming the part (and the page or slot) concerned.
    public var message: String

    public init(_ code: SigningProblem.Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
