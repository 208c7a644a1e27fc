/// Cheap content sniffing: what a file is, from its first bytes.
package enum PlistSniffer {
    /// `bplist`, or (after an optional UTF-8 BOM and whitespace) `<?xml`, `<!DOCTYPE` or `<plist`.
    package static func looksLikePlist<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool
    where Bytes.Index == Int {
        if bytes.starts(with: Array("bplist".utf8)) { return true }
        var index = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
        while index < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        let rest = bytes[index...]
        return rest.starts(with: Array("<?xml".utf8)) || rest.starts(with: Array("<!DOCTYPE".utf8))
            || rest.starts(with: Array("<plist".utf8))
    }
}
