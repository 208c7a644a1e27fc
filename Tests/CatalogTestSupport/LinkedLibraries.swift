import Foundation

/// The shared libraries a binary links, as the platform's lister prints them (`ldd` on Linux,
/// `otool -L` on macOS): what the tests check a build does or does not depend on.
public enum LinkedLibraries {
    #if canImport(Darwin)
    public static let lister = ["/usr/bin/otool", "-L"]
    #else
    public static let lister = ["/usr/bin/ldd"]
    #endif

    public static var canList: Bool { FileManager.default.isExecutableFile(atPath: lister[0]) }

    /// The lister's exit status and what it printed for `binary`.
    public static func listing(of binary: String) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: lister[0])
        process.arguments = Array(lister.dropFirst()) + [binary]
        let (status, stdout, _) = try CatalogProcess.capture(process)
        return (status, String(decoding: stdout, as: UTF8.self))
    }
}
