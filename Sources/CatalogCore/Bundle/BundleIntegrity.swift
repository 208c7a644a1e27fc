/// What `codesign --verify --strict` checks of one bundle beyond its executable's own signature:
/// the Info.plist and `_CodeSignature/CodeResources` against the special slots that bind them, and
/// every file against the resource seal. A part that cannot be read is `signature-unreadable`,
/// never a pass.
struct BundleIntegrity {
    let files: any BundleFiles
    /// The folder the seal's paths are relative to: the bundle on iOS, `X.app/Contents` on macOS,
    /// `Versions/A` for a macOS framework.
    let content: String
    let infoPlist: String
    let executablePath: String
    /// Nil when no file is where `CFBundleExecutable` says.
    let executable: BuildExecutable?

    /// Largest Info.plist or CodeResources read to be hashed.
    static let maximumSealSize = 64 << 20

    /// `nestedCDHashes(path)`: the cdhashes of the nested code at `path` (relative to ``content``),
    /// for a seal that names it by cdhash; nil when it cannot be read.
    func problems(nestedCDHashes: (String) -> [String]?) -> [SigningProblem] {
        guard let executable else {
            return [SigningProblem(.signatureUnreadable, executable: executablePath,
                                   message: "no executable at \(executablePath): nothing of the bundle could be checked")]
        }
        var problems = Self.codeProblems(of: executable)
        guard let binary = executable.binary else { return problems }
        let directories = binary.slices.compactMap(\.codeSignature).flatMap(\.codeDirectories)
        guard !directories.isEmpty, !directories.allSatisfy(\.isLinkerSigned) else { return problems }
        func add(_ code: SigningProblem.Code, _ message: String) {
            problems.append(SigningProblem(code, executable: executablePath, message: message))
        }
        guard CodePageCheck.enabled else {
            add(.signatureUnreadable, "code and resources were not hashed (CATALOG_VERIFY_INTEGRITY=0): their integrity is unchecked")
            return problems
        }

        guard files.isInside(content) else {
            add(.signatureUnreadable, "\(files.describe(content)) leads out of the build: its files were not checked")
            return problems
        }
        // The bundle's own listing says what its Info.plist and seal are, so they are opened
        // without looking at each component of their paths again.
        let top = Dictionary(files.entries(of: content).map { ($0.name, $0.kind) }, uniquingKeysWith: { first, _ in first })
        let sealFolder = BuildBinaryReader.join(content, "_CodeSignature")
        let sealKinds = top["_CodeSignature"] == .directory
            ? Dictionary(files.entries(of: sealFolder).map { ($0.name, $0.kind) }, uniquingKeysWith: { first, _ in first }) : [:]
        let info = infoPlist == BuildBinaryReader.join(content, "Info.plist") && top["Info.plist"] == .file
            ? try? files.read(listed: infoPlist, limit: Self.maximumSealSize)
            : try? files.read(infoPlist, limit: Self.maximumSealSize)
        if directories.contains(where: { $0.boundSpecialSlots[1] != nil }) {
            if let info {
                if directories.contains(where: { $0.specialSlot(1, matches: info) == false }) {
                    add(.infoPlistModified, "\(infoPlist) is not the Info.plist the signature sealed (special slot -1)")
                }
            } else {
                add(.infoPlistModified, "the signature seals an Info.plist (special slot -1), but \(infoPlist) cannot be read")
            }
        }

        let sealPath = BuildBinaryReader.join(sealFolder, "CodeResources")
        let seal = sealKinds["CodeResources"] == .file ? try? files.read(listed: sealPath, limit: Self.maximumSealSize) : nil
        guard directories.contains(where: { $0.boundSpecialSlots[3] != nil }) else {
            add(.resourcesSealModified, seal == nil
                ? "the signature seals no resources (special slot -3 is not bound, no \(sealPath)): the bundle's files are unchecked"
                : "\(sealPath) is not bound by the signature (special slot -3): the bundle's files are unchecked")
            return problems
        }
        guard let seal else {
            add(.resourcesSealModified, "the signature binds a resource seal (special slot -3), but \(sealPath) is missing or unreadable")
            return problems
        }
        if directories.contains(where: { $0.specialSlot(3, matches: seal) == false }) {
            // What a changed seal says of the files proves nothing: they are not compared with it.
            add(.resourcesSealModified, "\(sealPath) is not the resource seal the signature sealed (special slot -3)")
            return problems
        }
        let parsed: ResourceSeal
        do {
            parsed = try ResourceSeal(bytes: seal, path: files.describe(sealPath))
        } catch {
            add(.signatureUnreadable, "\(sealPath): \((error as? DecodeError)?.reason ?? "\(error)"): the bundle's files are unchecked")
            return problems
        }
        let prefix = content.isEmpty ? "" : content + "/"
        let ownExecutable = executablePath.hasPrefix(prefix) ? String(executablePath.dropFirst(prefix.count)) : executablePath
        for finding in ResourceSealCheck.check(parsed, files: files, base: content, excluded: [ownExecutable],
                                               nestedCDHashes: nestedCDHashes) {
            add(finding.code, finding.message)
        }
        return problems
    }

    /// The problems of an executable as read: unreadable file or signature, an unsigned slice of
    /// nested code (the bundle's own unsigned executable is ``SigningCheck``'s), and each slice's
    /// ``SignatureFinding``s, once each.
    static func codeProblems(of executable: BuildExecutable) -> [SigningProblem] {
        let path = executable.path
        guard let binary = executable.binary else {
            let reason = executable.error?.reason ?? "not a readable Mach-O binary"
            return [SigningProblem(.signatureUnreadable, executable: path, message: "\(path) could not be read: \(reason)")]
        }
        var problems: [SigningProblem] = []
        var seen: Set<String> = []
        for slice in binary.slices {
            if let error = slice.codeSignatureError {
                problems.append(SigningProblem(.signatureUnreadable, executable: path,
                                               message: "the code signature of the \(slice.architecture) slice: \(error.reason)"))
            } else if !slice.isSigned, executable.role == .framework {
                problems.append(SigningProblem(.unsigned, executable: path, message: "the \(slice.architecture) slice has no code signature"))
            }
            for finding in slice.codeSignature?.findings ?? [] where seen.insert(finding.message).inserted {
                problems.append(SigningProblem(finding.code, executable: path, message: finding.message))
            }
        }
        return problems
    }
}
