/// A value handed from the decoding queue to the writing thread; a DispatchGroup orders the two.
final class BatchBox<Value>: @unchecked Sendable {
    var value: Value?
}
