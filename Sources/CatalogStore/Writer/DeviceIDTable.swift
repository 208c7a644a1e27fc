/// The writer's row ids of the devices it has met, by identifier. Open addressing: a slot holds a
/// short identifier's words (``DeviceKey``) beside its id, so a lookup reads one slot, where
/// `[DeviceKey: Int64]` reads an occupancy bitmap, the key and the value from three places and
/// hashes with SipHash. Identifiers longer than ``DeviceKey`` holds, which Apple does not issue, are
/// kept by their text beside it.
/// Kept for speed: cold ingest (bench.py).
struct DeviceIDTable {
    private struct Slot {
        var key: DeviceKey
        var id: Int64
    }

    /// A power of two, at most half full; nil marks an empty slot.
    private var slots: [Slot?]
    private var shortCount = 0
    private var long: [String: Int64] = [:]

    init() {
        slots = Array(repeating: nil, count: 1024)
    }

    var count: Int { shortCount + long.count }

    /// The id of the device whose identifier is `udid`, if the writer has met it.
    func id(of udid: String) -> Int64? {
        let key = DeviceKey(udid)
        guard key.isShort else { return long[udid] }
        return slots[position(of: key)]?.id
    }

    /// Records `id` as the id of `udid` (replacing any before).
    mutating func set(_ id: Int64, for udid: String) {
        let key = DeviceKey(udid)
        guard key.isShort else {
            long[udid] = id
            return
        }
        let index = position(of: key)
        if slots[index] != nil {
            slots[index]?.id = id
            return
        }
        slots[index] = Slot(key: key, id: id)
        shortCount += 1
        if shortCount * 2 > slots.count { grow() }
    }

    mutating func removeAll() {
        slots = Array(repeating: nil, count: 1024)
        shortCount = 0
        long.removeAll()
    }

    /// The slot holding `key`, else the empty slot where it would go.
    private func position(of key: DeviceKey) -> Int {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: key.mixedHash) & mask
        while let slot = slots[index], slot.key != key { index = (index + 1) & mask }
        return index
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: old.count * 2)
        for case let slot? in old { slots[position(of: slot.key)] = slot }
    }
}
