import Foundation

extension AppInfo {
    /// Decodes an app's `Info.plist`, XML or binary. Version keys written as numbers are read as
    /// their text; any other key of the wrong type counts as absent, as Xcode tolerates it.
    ///
    /// ```swift
    /// let info = try AppInfo(bytes: Data(contentsOf: plistURL))
    /// print(info.bundleID ?? "-", info.formattedVersion)   // com.example.app 1.2 (34)
    /// ```
    ///
    /// - Throws: ``DecodeError`` (`.unrecognized` when the bytes are not a plist,
    ///   `.malformedPlist`, `.invalidValue` when the root is not a dictionary).
    public init(bytes: some Sequence<UInt8>) throws {
        self = try AppInfoDecoder.decode(Array(bytes))
    }

    /// Reads and decodes the `Info.plist` at `url` (a `file:` URL); errors name its path.
    public init(contentsOf url: URL) throws {
        let path = try FileBytes.path(of: url)
        self = try AppInfoDecoder.decode(try FileBytes.read(path, limit: AppInfoDecoder.maximumSize), path: path)
    }
}
