/// A fixed-size buffer that concurrent workers fill, each touching only its own index. Raw memory,
/// not an Array property, so no exclusivity check sees two workers' writes as overlapping.
final class ParallelResults<Element>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Element>
    private let count: Int

    init(count: Int, initial: Element) {
        self.count = count
        storage = UnsafeMutablePointer<Element>.allocate(capacity: max(count, 1))
        storage.initialize(repeating: initial, count: count)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    subscript(index: Int) -> Element {
        get { storage[index] }
        set { storage[index] = newValue }
    }
}

extension ParallelResults where Element: ExpressibleByNilLiteral {
    convenience init(count: Int) { self.init(count: count, initial: nil) }
}
