import Foundation

/// A fresh folder under the system temporary folder, removed (whatever modes or names it holds)
/// when the value goes away: the one scratch-folder helper of every test target.
public final class Scratch {
    /// The folder, under its on-disk spelling, as the ingest stores roots: on macOS the temporary
    /// folder is /var/folders/…, a symlink to /private/var/folders/….
    public let path: String

    public init() throws {
        path = TestPaths.temporary + "catalog-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        // `rm -rf` copes with mode-000 folders (after the chmod) and non-UTF-8 names.
        Self.run("/bin/chmod", ["-R", "u+rwx", path])
        Self.run("/bin/rm", ["-rf", path])
    }

    private static func run(_ executable: String, _ arguments: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return }
        process.waitUntilExit()
    }

    /// `name` (a relative path) under the folder; nothing is created.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The names in the folder, sorted.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    /// A copy of `Fixtures/` (or one of its subfolders) at `name`, for tests that mutate the tree.
    @discardableResult
    public func copyFixtures(_ sub: String = "", to name: String = "Fixtures") throws -> String {
        let source = sub.isEmpty ? TestPaths.fixtures : TestPaths.fixtures + "/" + sub
        return try copy(source, to: name)
    }

    /// A tree at `name` built from the generated fixtures alone, large enough for tests that need many
    /// writes or pages (kill points, a disk that fills), so they pass with nothing beside the checkout:
    /// `copies` copies of `Fixtures/`, plus `profileVariants` bare-plist profiles that differ from
    /// `bare-plist.mobileprovision` only by UUID (each one more profile row, devices and entitlements).
    @discardableResult
    public func makeFixtureTree(_ name: String = "tree", copies: Int, profileVariants: Int = 0) throws -> String {
        for copy in 0..<copies { try copyFixtures(to: "\(name)/copy\(copy)") }
        let template = try String(contentsOfFile: TestPaths.fixtures + "/profiles/bare-plist.mobileprovision",
                                  encoding: .utf8)
        let uuid = "46108860-2000-4050-A219-2B0579857204"
        precondition(template.contains(uuid), "bare-plist.mobileprovision changed its UUID")
        for index in 0..<profileVariants {
            let variant = String(format: "46108860-2000-4050-A219-%012X", 0xFEED_0000 + index)
            try write("\(name)/variants/variant-\(index).mobileprovision",
                      Array(template.replacingOccurrences(of: uuid, with: variant).utf8))
        }
        return file(name)
    }

    /// A copy of `source` at `name`, its folders made as needed.
    @discardableResult
    public func copy(_ source: String, to name: String) throws -> String {
        let target = file(name)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        return target
    }

    /// Writes `bytes` to `name`, its folders made as needed.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let target = file(name)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Creates the folders of `name` with mkdir(2), each name exactly the UTF-8 of the scalars given:
    /// Foundation on macOS hands the file system decomposed names (é as e + U+0301).
    @discardableResult
    public func makeFoldersExactly(_ name: String) throws -> String {
        var folder = path
        for component in name.split(separator: "/") {
            folder += "/" + component
            guard mkdir(folder, 0o755) == 0 || errno == EEXIST else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }
        return folder
    }

    /// Writes `bytes` to `name` with open(2), its last name exactly as given; its folders are made
    /// as ``makeFoldersExactly(_:)`` does.
    @discardableResult
    public func writeExactly(_ name: String, _ bytes: [UInt8]) throws -> String {
        let folder = (name as NSString).deletingLastPathComponent
        let target = (folder.isEmpty ? path : try makeFoldersExactly(folder)) + "/" + (name as NSString).lastPathComponent
        let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        try FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).write(contentsOf: bytes)
        return target
    }

    /// `path` under the scratch folder, each name below it as its folder's listing (`readdir`)
    /// spells it: the entry with the same bytes, else the one equal to it under Unicode canonical
    /// equivalence (what a normalisation-insensitive volume opens for it).
    public static func storedSpelling(_ path: String) -> String {
        var resolved = ""
        for component in path.split(separator: "/").map(String.init) {
            let names = listing(resolved.isEmpty ? "/" : resolved)
            let stored = names.first { Array($0.utf8) == Array(component.utf8) } ?? names.first { $0 == component }
            resolved += "/" + (stored ?? component)
        }
        return resolved
    }

    /// The names in `folder` as `readdir` gives their bytes.
    public static func listing(_ folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)
            ?? MemoryLayout<dirent>.size - MemoryLayout.size(ofValue: dirent().d_name)
        var names: [String] = []
        while let entry = readdir(directory) {
            // Read in place: the record is only as long as its name.
            names.append(String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self)))
        }
        return names.filter { $0 != "." && $0 != ".." }
    }
}
