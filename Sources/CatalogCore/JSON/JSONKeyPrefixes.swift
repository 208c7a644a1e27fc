/// What ``JSONObjectBytes`` writes for each member's key after the separator (`{` or `,`): the line
/// feed and indent when pretty, the quoted key, `:` and, when pretty, a space. The bytes are made
/// once per key and layout, and then copied whole: a listing writes the same two dozen keys in
/// every row.
/// Kept for speed: `profiles --json` rate (bench.py).
///
/// Keys are string literals: a key is found by where its bytes are and how many there are (two
/// literals at one address with one length are the same bytes). Open addressing, 64 slots; once
/// 48 keys are held, others are written the slow way, with the same bytes.
struct JSONKeyPrefixes {
    private struct Slot {
        var address: UInt = 0
        var count = 0
        var start = 0
        var length = 0
    }

    private var slots = [Slot](repeating: Slot(), count: 64)
    private var held = 0
    private var storage: [UInt8] = []
    private var pretty = false
    private var indent = 0

    /// Forgets every prefix when the layout changes (each one holds the indent).
    mutating func use(pretty: Bool, indent: Int) {
        guard pretty != self.pretty || indent != self.indent else { return }
        self.pretty = pretty
        self.indent = indent
        if held > 0 {
            slots = [Slot](repeating: Slot(), count: 64)
            held = 0
            storage.removeAll(keepingCapacity: true)
        }
    }

    /// Appends `key`'s prefix to `out`, made by `make` (which appends it) the first time.
    mutating func append(_ key: StaticString, to out: inout [UInt8], make: (inout [UInt8]) -> Void) {
        guard key.hasPointerRepresentation else { return make(&out) }
        let address = UInt(bitPattern: key.utf8Start), count = key.utf8CodeUnitCount
        var index = Int(truncatingIfNeeded: ((UInt64(address) ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15) >> 58)
        while slots[index].address != 0 {
            if slots[index].address == address && slots[index].count == count {
                let slot = slots[index]
                storage.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[slot.start..<slot.start + slot.length])) }
                return
            }
            index = (index + 1) & 63
        }
        guard held < 48 else { return make(&out) }
        let start = storage.count
        make(&storage)
        slots[index] = Slot(address: address, count: count, start: start, length: storage.count - start)
        held += 1
        storage.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start...])) }
    }
}
