/// Finds a build's Mach-O files by the bundle layout — the app's executable, then its nested
/// bundles' (extensions, watch app, app clip, system extensions, login items, XPC services) and
/// frameworks' — reads each through ranges, and gathers the ``SigningSubject``s: the app and every
/// nested bundle that embeds a profile. A file that is not a readable binary is listed with its
/// error.
///
/// Nested bundles' profiles are decoded for the checks alone, without verifying their signatures
/// and without asking the caller's ``EmbeddedProfilePolicy`` (an ingest's policy records what it
/// is asked about; it decodes those profiles when it reads the nested bundles as builds).
struct BuildBinaryReader {
    /// Bundles visited per build, and how deep they nest (app → watch app → extension is 2): a
    /// hostile `.ipa` cannot make the walk unbounded.
    static let maximumBundles = 1024
    static let maximumDepth = 4

    let files: any BundleFiles
    /// What code signatures' CMS signers must chain to; nil leaves them unverified.
    let trust: TrustAnchors?
    private(set) var executables: [BuildExecutable] = []
    private(set) var subjects: [SigningSubject] = []
    /// What is wrong with the code and resources as signed, every bundle's (see ``BundleIntegrity``).
    private(set) var integrityProblems: [SigningProblem] = []
    private var bundles = 0
    /// Each bundle's (and framework's) main executable, by the bundle's path: what a parent's seal
    /// names by cdhash.
    private var bundleExecutables: [String: BuildExecutable] = [:]

    init(files: any BundleFiles, trust: TrustAnchors?) {
        self.files = files
        self.trust = trust
    }

    /// Where nested bundles sit inside a bundle's content folder, and what they are.
    static let nestedLocations: [(folder: String, suffix: String, role: BuildExecutable.Role)] = [
        ("PlugIns", ".appex", .appExtension), ("Extensions", ".appex", .appExtension), ("Watch", ".app", .watchApp),
        ("AppClips", ".app", .appClip), ("Library/SystemExtensions", ".systemextension", .systemExtension),
        ("Library/LoginItems", ".app", .loginItem), ("XPCServices", ".xpc", .xpcService),
    ]

    /// The app at `appPath` (relative to the container), whose Info.plist and embedded profile the
    /// caller has already read.
    mutating func readApp(at appPath: String, info: AppInfo, embeddedProfile: (present: Bool, profile: ProvisioningProfile?)) {
        readBundle(at: appPath, role: .main, depth: 0, known: (info, embeddedProfile))
    }

    private mutating func readBundle(at bundle: String, role: BuildExecutable.Role, depth: Int,
                                     known: (AppInfo, (present: Bool, profile: ProvisioningProfile?))? = nil) {
        guard bundles < Self.maximumBundles else { return }
        bundles += 1
        // Each folder is listed once and only the entries it has are looked at: most bundles hold
        // none of the nested locations, and trying each by name costs a failed open apiece.
        let top = Set(files.children(of: bundle))
        let isMacOS = top.contains("Contents") && files.isFile(Self.join(bundle, "Contents/Info.plist"))
        let content = isMacOS ? Self.join(bundle, "Contents") : bundle
        let entries = isMacOS ? Set(files.children(of: content)) : top
        let info = known?.0 ?? (try? AppInfoDecoder.decode(files.read(Self.join(content, "Info.plist"),
                                                                        limit: AppInfoDecoder.maximumSize)))
        // An `.app` read as the container is its root, `""`: its name is the folder's.
        let name = Self.fileName(info?.executable) ?? Self.stem(bundle.isEmpty ? files.describe("") : bundle)
        let executablePath = Self.join(isMacOS ? Self.join(content, "MacOS") : content, name)
        let executable = files.isFile(executablePath) ? read(executablePath, role: role, bundleID: info?.bundleID) : nil
        if let executable {
            executables.append(executable)
            bundleExecutables[bundle] = executable
        }
        let simulator = (info?.platform?.hasSuffix("Simulator") ?? false)
            || (executable?.binary?.slices.contains { $0.platform?.isSimulator ?? false } ?? false)
        // The bundle's own problems come before its nested code's, but its seal is checked once the
        // nested code is read: a macOS seal names nested bundles by their cdhash.
        let position = integrityProblems.count
        defer {
            if !simulator {
                let integrity = BundleIntegrity(files: files, content: content, infoPlist: Self.join(content, "Info.plist"),
                                                executablePath: executablePath, executable: executable)
                integrityProblems.insert(contentsOf: integrity.problems(nestedCDHashes: { nestedCDHashes(content, $0) }),
                                         at: position)
            }
        }

        let profilePath = Self.join(content, isMacOS ? "embedded.provisionprofile" : "embedded.mobileprovision")
        var embedded = known?.1 ?? (present: false, profile: nil)
        if known == nil, files.isFile(profilePath) {
            embedded = (true, decodeProfile(profilePath))
        }
        if role == .main || embedded.present {
            subjects.append(SigningSubject(executable: executablePath, role: role, bundleID: info?.bundleID, isMacOS: isMacOS,
                                           isSimulator: simulator, binary: Self.state(of: executable),
                                           hasEmbeddedProfile: embedded.present, profile: embedded.profile))
        }

        let frameworks = Self.join(content, "Frameworks")
        for child in entries.contains("Frameworks") ? files.children(of: frameworks) : [] {
            let path = Self.join(frameworks, child)
            if child.hasSuffix(".framework") {
                readFramework(at: path)
            } else if child.hasSuffix(".dylib"), files.isFile(path) {
                let dylib = read(path, role: .framework, bundleID: nil)
                executables.append(dylib)
                integrityProblems += BundleIntegrity.codeProblems(of: dylib)
            }
        }
        guard depth < Self.maximumDepth else { return }
        for location in Self.nestedLocations {
            guard let first = location.folder.split(separator: "/").first, entries.contains(String(first)) else { continue }
            let folder = Self.join(content, location.folder)
            for child in files.children(of: folder) where child.hasSuffix(location.suffix) && child.count > location.suffix.count {
                readBundle(at: Self.join(folder, child), role: location.role, depth: depth + 1)
            }
        }
    }

    /// A framework: `X.framework/X` (iOS), or `X.framework/Versions/<Current>/X` (macOS), its
    /// Info.plist beside the binary or in `Resources/`.
    private mutating func readFramework(at framework: String) {
        guard bundles < Self.maximumBundles else { return }
        bundles += 1
        var version = framework
        let versions = Self.join(framework, "Versions")
        if !files.children(of: versions).isEmpty {
            let current = Self.fileName(files.symbolicLinkTarget(Self.join(versions, "Current")))
                ?? files.children(of: versions).first { $0 != "Current" }
            if let current { version = Self.join(versions, current) }
        }
        var info: AppInfo?
        var infoPath = Self.join(version, "Info.plist")
        for candidate in [infoPath, Self.join(version, "Resources/Info.plist")] where info == nil {
            info = try? AppInfoDecoder.decode(files.read(candidate, limit: AppInfoDecoder.maximumSize))
            if info != nil { infoPath = candidate }
        }
        let path = Self.join(version, Self.fileName(info?.executable) ?? Self.stem(framework))
        let executable = files.isFile(path) ? read(path, role: .framework, bundleID: info?.bundleID) : nil
        if let executable {
            executables.append(executable)
            bundleExecutables[framework] = executable
        }
        if !(executable?.binary?.slices.contains { $0.platform?.isSimulator ?? false } ?? false) {
            let integrity = BundleIntegrity(files: files, content: version, infoPlist: infoPath, executablePath: path,
                                            executable: executable)
            integrityProblems += integrity.problems(nestedCDHashes: { nestedCDHashes(version, $0) })
        }
    }

    /// The cdhashes (every slice's, every CodeDirectory's) of the nested code at `relative` inside
    /// `content`: a bundle read as part of the build, else a Mach-O file there; nil when unreadable.
    private func nestedCDHashes(_ content: String, _ relative: String) -> [String]? {
        let path = Self.join(content, relative)
        let binary = bundleExecutables[path]?.binary ?? executables.first { $0.path == path }?.binary
            ?? (files.isFile(path) ? decode(path).0 : nil)
        guard let binary else { return nil }
        return binary.slices.compactMap(\.codeSignature).flatMap(\.codeDirectories).compactMap(\.cdhash)
    }

    /// The binaries under an archive's `dSYMs/*.dSYM/Contents/Resources/DWARF/`.
    func readDebugSymbols(in folder: String) -> [DebugSymbols] {
        var found: [DebugSymbols] = []
        for bundle in files.children(of: folder) where bundle.hasSuffix(".dSYM") {
            let dwarf = Self.join(folder, bundle + "/Contents/Resources/DWARF")
            for name in files.children(of: dwarf).prefix(Self.maximumBundles) {
                let path = Self.join(dwarf, name)
                guard files.isFile(path) else { continue }
                let (binary, error) = decode(path)
                found.append(DebugSymbols(path: path, binary: binary, error: error))
            }
        }
        return found
    }

    private func read(_ path: String, role: BuildExecutable.Role, bundleID: String?) -> BuildExecutable {
        let (binary, error) = decode(path)
        return BuildExecutable(role: role, path: path, bundleID: bundleID, binary: binary, error: error)
    }

    private func decode(_ path: String) -> (MachOFile?, DecodeError?) {
        let name = files.describe(path)
        do {
            return (try MachOFile(reader: try files.rangeReader(path), path: name, trust: trust), nil)
        } catch var error as DecodeError {
            error.path = name
            return (nil, error)
        } catch {
            return (nil, DecodeError(.unreadable, "\(error)", path: name))
        }
    }

    private func decodeProfile(_ path: String) -> ProvisioningProfile? {
        guard let bytes = try? files.read(path, limit: ProfileDecoder.maximumSize) else { return nil }
        return try? ProfileDecoder.decode(bytes, path: files.describe(path), trust: nil)
    }

    private static func state(of executable: BuildExecutable?) -> SigningSubject.Binary {
        guard let executable else { return .missing }
        guard let binary = executable.binary else { return .unreadable(executable.error ?? DecodeError(.unreadable, "unreadable")) }
        if let broken = binary.slices.lazy.compactMap(\.codeSignatureError).first { return .unreadable(broken) }
        let unsigned = binary.slices.filter { !$0.isSigned }.map(\.architecture)
        if !unsigned.isEmpty { return .unsigned(unsigned) }
        guard let signature = executable.codeSignature else {
            return .unreadable(DecodeError(.malformedMachO, "no readable code signature", path: executable.path))
        }
        return .signed(signature)
    }

    /// `folder/name`, or `name` at the container's root (`""`).
    static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }

    /// A name from a plist or a link, used as one path component: nil when it would leave the folder
    /// (`..`, a `/`) or is empty.
    static func fileName(_ name: String?) -> String? {
        guard let name, !name.isEmpty, name != ".", name != "..", !name.contains("/") else { return nil }
        return name
    }

    /// `Widget.appex` → `Widget`.
    static func stem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
