extension Connection {
    /// The plist of the profile `uuid` exactly as it was in the file (the CMS envelope's content),
    /// however the catalogue stores it (``StoredPlist``); nil when no such profile is catalogued.
    package func rawPlist(uuid: String) throws -> [UInt8]? {
        try storedRawPlist(uuid: uuid, catalogue: path)
    }
}

extension QueryExecutor {
    /// ``Connection/rawPlist(uuid:)`` on either engine; `catalogue` names it in errors.
    func storedRawPlist(uuid: String, catalogue: String) throws -> [UInt8]? {
        // Its own table since migration 0016, keyed by the profile's id.
        guard let row = try firstRow("""
            SELECT pl.raw_plist, p.device_ids FROM profiles p JOIN profile_plists pl ON pl.profile_id = p.id WHERE p.uuid = ?
            """, [.text(uuid.uppercased())]), let stored = row[0].blob else { return nil }
        do {
            return try StoredPlist.decode(stored, certificate: { sha1 in
                try firstRow("SELECT der FROM certificate_der WHERE sha1 = ?", [.text(sha1)])?[0].blob
            }, devices: {
                guard let deviceIDs = row.string("device_ids") else { return [] }
                var udids: [Int64: String] = [:]
                try eachRow("SELECT id, udid FROM devices WHERE id IN (\(dialect.jsonIDs("?")))", [.text(deviceIDs)]) {
                    if let id = $0.int64("id"), let udid = $0.string("udid") { udids[id] = udid }
                }
                return try StoredJSON().ids(deviceIDs).map { id in
                    guard let udid = udids[id] else { throw StoredPlistError("device \(id) is not in the catalogue") }
                    return udid
                }
            }, device: { id in
                try firstRow("SELECT udid FROM devices WHERE id = ?", [.integer(id)])?.string("udid")
            })
        } catch let error as StoredPlistError {
            throw StoreError.damagedRawPlist(path: catalogue, uuid: uuid.uppercased(), reason: error.description)
        }
    }
}

extension CatalogWriter {
    /// The stored plist of the profile `uuid` as written so far in this run (see
    /// ``Connection/rawPlist(uuid:)``).
    package func rawPlist(uuid: String) throws -> [UInt8]? {
        try sharedDB.storedRawPlist(uuid: uuid, catalogue: "being written")
    }
}
