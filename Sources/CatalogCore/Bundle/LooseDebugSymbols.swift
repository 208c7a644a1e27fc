import Foundation

/// A dSYM kept outside an archive, where people keep them: a `.dSYM` folder, a zipped dSYM
/// (`X.app.dSYM.zip`), or one of the many in a zip App Store Connect or Xcode's Organizer hands out.
/// Its identity comes from its Info.plist; its DWARF files carry the UUIDs crash reports name.
public struct LooseDebugSymbols: Sendable, Equatable {
    /// The `.dSYM` bundle inside its container: `""` for a folder read itself, `X.app.dSYM` (or
    /// `Top/UUID.dSYM`) in a zip.
    public var bundlePath: String
    /// `CFBundleIdentifier` without Xcode's `com.apple.xcode.dsym.` prefix: the app's bundle id.
    public var bundleID: String?
    public var shortVersion: String?
    public var build: String?
    /// The DWARF files, each `path` relative to the container (a folder: `Contents/Resources/DWARF/X`;
    /// a zip: `X.app.dSYM/Contents/Resources/DWARF/X`); one that is not a readable Mach-O has its error.
    public var files: [DebugSymbols]

    public init(bundlePath: String, bundleID: String?, shortVersion: String?, build: String?, files: [DebugSymbols]) {
        self.bundlePath = bundlePath
        self.bundleID = bundleID
        self.shortVersion = shortVersion
        self.build = build
        self.files = files
    }

    /// Most dSYM bundles read from one zip, and DWARF files from one bundle: a hostile zip cannot
    /// make the reading unbounded.
    static let maximumBundles = 4096
    static let maximumFiles = 64

    /// The `.dSYM` folder at `path`.
    ///
    /// - Throws: ``DecodeError`` `.unreadable` when it holds no `Contents/Resources/DWARF` file.
    public static func read(folder path: String) throws -> LooseDebugSymbols {
        let bundle = read(FolderBundleFiles(root: path), bundle: "")
        guard !bundle.files.isEmpty else {
            throw DecodeError(.unreadable, "a .dSYM folder without Contents/Resources/DWARF/ files", path: path)
        }
        return bundle
    }

    /// The dSYMs in the zip at `path`, read in place (ranges of its entries, never extracted); nil
    /// when it holds none (a zip of something else).
    ///
    /// - Throws: ``DecodeError`` when the zip itself cannot be read.
    public static func read(zip path: String) throws -> [LooseDebugSymbols]? {
        read(zip: try ZipArchive(path: path))
    }

    /// The same for a zip already opened.
    package static func read(zip archive: ZipArchive) -> [LooseDebugSymbols]? {
        let files = ZipBundleFiles(archive)
        var bundles: [String] = []
        // At the top, or one folder down (a zip of a folder of dSYMs).
        for name in files.children(of: "") {
            if name.hasSuffix(".dSYM") { bundles.append(name); continue }
            guard name != "__MACOSX" else { continue }
            bundles += files.children(of: name).filter { $0.hasSuffix(".dSYM") }.map { name + "/" + $0 }
        }
        let found = bundles.prefix(maximumBundles).map { read(files, bundle: $0) }.filter { !$0.files.isEmpty }
        return found.isEmpty ? nil : Array(found)
    }

    private static func read(_ files: any BundleFiles, bundle: String) -> LooseDebugSymbols {
        func join(_ relative: String) -> String { bundle.isEmpty ? relative : bundle + "/" + relative }
        var info = LooseDebugSymbols(bundlePath: bundle, bundleID: nil, shortVersion: nil, build: nil, files: [])
        if let bytes = try? files.read(join("Contents/Info.plist"), limit: AppInfoDecoder.maximumSize),
           let plist = try? PropertyListReader.parseDictionary(bytes, "Info.plist").dictionary {
            let identifier = plist["CFBundleIdentifier"]?.string
            let prefix = "com.apple.xcode.dsym."
            info.bundleID = identifier.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }
            info.shortVersion = plist["CFBundleShortVersionString"]?.string
            info.build = plist["CFBundleVersion"]?.string
        }
        let dwarf = join("Contents/Resources/DWARF")
        for name in files.children(of: dwarf).prefix(maximumFiles) {
            let path = dwarf + "/" + name
            guard files.isFile(path) else { continue }
            do {
                let binary = try MachOFile(reader: try files.rangeReader(path), path: files.describe(path), trust: nil)
                info.files.append(DebugSymbols(path: path, binary: binary))
            } catch let error as DecodeError {
                info.files.append(DebugSymbols(path: path, binary: nil, error: error.at(path: files.describe(path))))
            } catch {
                info.files.append(DebugSymbols(path: path, binary: nil, error: DecodeError(.unreadable, "\(error)", path: files.describe(path))))
            }
        }
        return info
    }
}
