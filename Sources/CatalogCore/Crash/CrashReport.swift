import Foundation

/// A crash report as Apple writes it — the JSON `.ips` of iOS 15 and macOS 12 and later, or the
/// text `.crash` — reduced to what finds its build: who crashed (process, bundle id, version and
/// build as the report states them), the images loaded (each binary's UUID and where it was
/// loaded), and the threads' frames.
public struct CrashReport: Sendable, Equatable {
    public enum Format: String, Sendable, Codable {
        case ips
        case crash
    }

    /// One binary image the process had loaded.
    public struct Image: Sendable, Equatable {
        /// The binary's name (`Runner`, `libsystem_kernel.dylib`); a macOS 12+ text report names
        /// bundled images by their bundle id.
        public var name: String
        /// `LC_UUID` as ``MachOSlice/uuid`` writes it; nil when the report gives none.
        public var uuid: String?
        public var arch: String?
        public var path: String?
        /// Where the image was loaded in the process.
        public var loadAddress: UInt64?
        public var size: UInt64?
        /// The crashed process's main executable.
        public var isMain: Bool

        public init(name: String, uuid: String?, arch: String?, path: String?, loadAddress: UInt64?, size: UInt64?, isMain: Bool) {
            self.name = name
            self.uuid = uuid
            self.arch = arch
            self.path = path
            self.loadAddress = loadAddress
            self.size = size
            self.isMain = isMain
        }
    }

    public struct Frame: Sendable, Equatable {
        public var index: Int
        /// The image's name, as the report writes it.
        public var image: String?
        /// The image's position in ``CrashReport/images``, when known.
        public var imageIndex: Int?
        public var address: UInt64?
        /// From the image's load address.
        public var imageOffset: UInt64?
        /// The symbol the report already names, if it was symbolicated.
        public var symbol: String?

        public init(index: Int, image: String?, imageIndex: Int?, address: UInt64?, imageOffset: UInt64?, symbol: String?) {
            self.index = index
            self.image = image
            self.imageIndex = imageIndex
            self.address = address
            self.imageOffset = imageOffset
            self.symbol = symbol
        }
    }

    public struct Thread: Sendable, Equatable {
        public var index: Int
        public var crashed: Bool
        public var frames: [Frame]

        public init(index: Int, crashed: Bool, frames: [Frame]) {
            self.index = index
            self.crashed = crashed
            self.frames = frames
        }
    }

    public var format: Format
    public var incidentID: String?
    public var process: String?
    public var bundleID: String?
    public var shortVersion: String?
    public var build: String?
    public var osVersion: String?
    public var hardwareModel: String?
    public var crashedAt: Date?
    /// The process's architecture (`arm64`, `x86_64`).
    public var codeType: String?
    public var images: [Image] = []
    public var threads: [Thread] = []
    public var crashedThreadIndex: Int?

    public init(format: Format) {
        self.format = format
    }

    /// The crashed process's executable.
    public var mainImage: Image? { images.first(where: \.isMain) }

    /// The thread that crashed.
    public var crashedThread: Thread? {
        threads.first(where: \.crashed) ?? crashedThreadIndex.flatMap { index in threads.first { $0.index == index } }
    }
}
