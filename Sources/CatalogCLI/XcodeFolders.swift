import CatalogCore
import Foundation

/// The folders Xcode keeps profiles and archives in, read when a command is given no PATH.
enum XcodeFolders {
    /// Installed profiles: Xcode 16's `UserData/Provisioning Profiles` and the older
    /// `MobileDevice/Provisioning Profiles`.
    static func profiles(home: String) -> [String] {
        [home + "/Library/MobileDevice/Provisioning Profiles",
         home + "/Library/Developer/Xcode/UserData/Provisioning Profiles"]
    }

    static func archives(home: String) -> String { home + "/Library/Developer/Xcode/Archives" }

    /// Those of `folders` that exist, or a usage error naming what was looked for.
    static func existing(_ folders: [String], described: String) throws -> [String] {
        let found = folders.filter { FileBytes.isDirectory($0) }
        guard !found.isEmpty else { throw UsageError(message: "no PATH given and none of \(described) exists") }
        return found
    }

    static func home(_ context: CommandContext) -> String { context.environment["HOME"] ?? NSHomeDirectory() }

    /// Where the selected Xcode reads installed profiles (`catalog install` without `--dir`): Xcode 16
    /// and later `UserData/Provisioning Profiles`, earlier ones `MobileDevice/Provisioning Profiles`.
    /// The selected Xcode is `$DEVELOPER_DIR`, else `xcode-select -p`; without one, a usage error.
    static func installFolder(_ context: CommandContext) throws -> String {
        let home = home(context)
        #if os(macOS)
        // DEVELOPER_DIR may name the Xcode.app itself, as xcode-select -s accepts.
        let given = context.environment["DEVELOPER_DIR"].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        let developer = given.flatMap { $0.isEmpty ? nil : $0.hasSuffix(".app") ? $0 + "/Contents/Developer" : $0 }
            ?? selectedDeveloperFolder()
        guard let developer, let major = xcodeMajorVersion(developerFolder: developer) else {
            throw UsageError(message: "no Xcode is selected (xcode-select -p: \(developer ?? "none")); pass --dir DIR")
        }
        return major >= 16 ? home + "/Library/Developer/Xcode/UserData/Provisioning Profiles"
                           : home + "/Library/MobileDevice/Provisioning Profiles"
        #else
        _ = home
        throw UsageError(message: "no Xcode on this system: pass --dir DIR (the folder to install profiles into)")
        #endif
    }

    #if os(macOS)
    /// `xcode-select -p`: the selected developer folder (`/Applications/Xcode.app/Contents/Developer`).
    static func selectedDeveloperFolder() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xcode-select")
        process.arguments = ["-p"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? nil : path
    }

    /// The major version of the Xcode whose `Contents/Developer` is `developerFolder`, from its
    /// `Contents/version.plist` (else `Contents/Info.plist`); nil for the Command Line Tools.
    static func xcodeMajorVersion(developerFolder: String) -> Int? {
        let contents = URL(fileURLWithPath: developerFolder).deletingLastPathComponent()
        for name in ["version.plist", "Info.plist"] {
            guard let data = FileManager.default.contents(atPath: contents.appendingPathComponent(name).path),
                  let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                  let version = plist["CFBundleShortVersionString"] as? String,
                  let major = version.split(separator: ".").first.flatMap({ Int($0) }) else { continue }
            return major
        }
        return nil
    }
    #endif
}
