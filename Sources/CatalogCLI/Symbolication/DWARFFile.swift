import CatalogCore
import Foundation

/// A dSYM's DWARF file as a path a symbolizer can open: the file itself, or an entry of a zip
/// (`X.zip!X.app.dSYM/Contents/Resources/DWARF/X`) copied to a temporary file for the time it is used.
struct DWARFFile {
    let path: String
    private let temporary: String?

    init(_ location: String) throws {
        if FileManager.default.fileExists(atPath: location) {
            path = location
            temporary = nil
            return
        }
        guard let bang = location.range(of: ".zip!") else {
            throw Symbolizer.Failure(description: "\(location): no such file")
        }
        let zipPath = String(location[..<bang.lowerBound]) + ".zip"
        let member = String(location[bang.upperBound...])
        let archive = try ZipArchive(path: zipPath)
        guard let entry = archive.entry(named: member) else { throw Symbolizer.Failure(description: "\(zipPath) has no \(member)") }
        let reader = try archive.rangeReader(of: entry)
        let folder = NSTemporaryDirectory() + "catalog-dwarf-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/" + (member as NSString).lastPathComponent
        guard FileManager.default.createFile(atPath: file, contents: nil), let handle = FileHandle(forWritingAtPath: file) else {
            try? FileManager.default.removeItem(atPath: folder)
            throw Symbolizer.Failure(description: "cannot write a temporary copy of \(location)")
        }
        defer { try? handle.close() }
        var offset: UInt64 = 0
        // In pieces: a dSYM's DWARF can be hundreds of megabytes.
        while offset < reader.size {
            let count = Int(min(reader.size - offset, 4 << 20))
            handle.write(Data(try reader.read(at: offset, count: count)))
            offset += UInt64(count)
        }
        path = file
        temporary = folder
    }

    /// Removes the temporary copy, if one was made.
    func close() {
        if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
    }
}
