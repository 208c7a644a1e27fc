import Foundation

/// A Mach-O binary as `lipo -info`, `dwarfdump --uuid` and `codesign -d` describe it: one slice per
/// architecture (a thin file has one), each with its UUID, platform, minimum OS and code signature.
///
/// ```swift
/// let binary = try MachOFile(contentsOf: URL(fileURLWithPath: "Example.app/Example"))
/// for slice in binary.slices {
///     print(slice.architecture, slice.uuid ?? "no UUID", slice.codeSignature?.cdhash ?? "unsigned")
/// }
/// ```
///
/// The headers, the load commands and the code signature are read, then each signed slice's code
/// up to its code limit, to check every page against its CodeDirectories (``init(contentsOf:)``
/// reads ranges of the file, never all of it at once). Every offset and count comes from the file
/// and is checked before it is used. A missing or ad-hoc signature is a fact about a slice, not an
/// error; a signature that cannot be read is kept as ``MachOSlice/codeSignatureError`` so the
/// slice's UUID is not lost with it.
public struct MachOFile: Sendable, Equatable {
    /// How the slices are packed: one thin binary, or a universal ("fat") file whose header has
    /// 32-bit (`FAT_MAGIC`) or 64-bit (`FAT_MAGIC_64`) offsets.
    public enum Layout: String, Sendable, Equatable, Codable {
        case thin
        case fat
        case fat64
    }

    public var layout: Layout
    /// In file order.
    public var slices: [MachOSlice]

    public init(layout: Layout, slices: [MachOSlice]) {
        self.layout = layout
        self.slices = slices
    }

    /// Decodes a binary held in memory; `path` only names it in errors.
    ///
    /// - Throws: ``DecodeError`` — `.unrecognized` when the bytes do not start with a Mach-O or fat
    ///   magic number, `.malformedMachO` when a header or load command is truncated or points
    ///   outside the file.
    ///
    /// `trust` is what a signature's CMS signer must chain to (its findings say otherwise); nil
    /// leaves the CMS signature unverified.
    public init(bytes: some Sequence<UInt8>, path: String, trust: TrustAnchors? = .apple) throws {
        try self.init(reader: MemoryRangeReader(Array(bytes)), path: path, trust: trust)
    }

    /// Decodes the binary at a `file:` URL, reading only the ranges it needs.
    ///
    /// - Throws: ``DecodeError`` as ``init(bytes:path:)``, and `.unreadable`.
    public init(contentsOf url: URL, trust: TrustAnchors? = .apple) throws {
        let path = try FileBytes.path(of: url)
        do {
            try self.init(reader: FileRangeReader(path: path), path: path, trust: trust)
        } catch let error as DecodeError {
            throw error.at(path: path)
        }
    }

    /// A UUID written as a person or a crash report may write it — any case, dashes anywhere or none,
    /// in the angle brackets of a `.crash` file's Binary Images (`<6d254a2f0a5e3faf8e0499d099b16b6c>`) —
    /// in the form ``MachOSlice/uuid`` has (`6D254A2F-0A5E-3FAF-8E04-99D099B16B6C`); nil unless it is
    /// 32 hex digits. For looking a binary up by the UUID a crash report names.
    public static func canonicalUUID(_ text: String) -> String? {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        if body.hasPrefix("<") && body.hasSuffix(">") { body = body.dropFirst().dropLast() }
        let digits = body.unicodeScalars.filter { $0 != "-" }
        guard digits.count == 32, digits.allSatisfy({ $0.properties.isASCIIHexDigit }) else { return nil }
        return formatUUID(Array(String(String.UnicodeScalarView(digits)).uppercased().utf8)[...], hex: true)
    }
}
