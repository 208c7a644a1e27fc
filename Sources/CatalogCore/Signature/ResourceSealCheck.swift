/// What `codesign --verify --strict` checks of a bundle's files against its resource seal: every
/// file the seal lists is present and equal (an optional one may be absent), every symlink points
/// where it did, nested code listed by cdhash still has it, and no file the rules cover was added.
package enum ResourceSealCheck {
    package struct Finding: Sendable, Equatable {
        package var code: SigningProblem.Code
        /// Relative to the seal's base.
        package var path: String
        package var message: String
    }

    /// Most files walked in one bundle; a hostile `.ipa` cannot make the walk unbounded.
    static let maximumFiles = 200_000
    static let chunkSize = 1 << 20

    /// Checks the files under `base` (relative to `files`' root) against `seal`. `excluded` are paths
    /// relative to `base` the seal never covers (the bundle's main executable); `_CodeSignature/` is
    /// always left out. `nestedCDHashes(path)` gives the cdhashes of the nested code at `path`
    /// (relative to `base`), nil when it cannot be read. Findings come sorted by path.
    package static func check(_ seal: ResourceSeal, files: any BundleFiles, base: String, excluded: Set<String>,
                              nestedCDHashes: (String) -> [String]?) -> [Finding] {
        var findings: [Finding] = []
        func add(_ code: SigningProblem.Code, _ path: String, _ message: String) {
            findings.append(Finding(code: code, path: path, message: message))
        }
        func full(_ path: String) -> String { base.isEmpty ? path : base + "/" + path }

        // The walk below never follows a link; the folder it starts from must not be one out of the build.
        guard files.isInside(base) else {
            add(.signatureUnreadable, "", "\(files.describe(base)) leads out of the build: its files were not checked")
            return findings
        }
        // The rules come from the file: their matching is bounded, and running out says so.
        var budget = ResourceSeal.matchingBudget
        var exhausted = false
        func rule(_ path: String) -> ResourceSeal.Rule? {
            guard !exhausted else { return nil }
            do {
                return try seal.rule(for: path, budget: &budget)
            } catch {
                exhausted = true
                return nil
            }
        }
        // One listing per folder gives every path and what it is; nested code a `nested` rule
        // covers is one entry, not walked into.
        var present: [String: FolderEntries.Kind] = [:]
        var ruled: [String: ResourceSeal.Rule] = [:]
        // Real iOS seals have no nested rule: then no folder is nested code, and none needs a rule.
        let hasNested = seal.rules.contains(where: \.nested)
        var walked = 0
        var pending = [""]
        while let folder = pending.popLast(), walked <= maximumFiles {
            for (name, kind) in files.entries(of: full(folder)) {
                let path = folder.isEmpty ? name : folder + "/" + name
                guard !(folder.isEmpty && name == "_CodeSignature"), !excluded.contains(path) else { continue }
                walked += 1
                present[path] = kind
                // Only a folder that may be nested code needs its rule now; the others' when unlisted.
                if kind == .directory, hasNested, isBundle(name), let found = rule(path) { ruled[path] = found }
                if kind == .directory && !(isBundle(name) && ruled[path]?.nested == true) { pending.append(path) }
            }
        }
        if walked > maximumFiles {
            add(.signatureUnreadable, "", "the bundle holds more than \(maximumFiles) files: the rest were not checked against the seal")
        }
        /// What is at `path`: from the walk, else (inside nested code not walked into) asked of the files.
        func kind(_ path: String) -> FolderEntries.Kind? {
            if let known = present[path] { return known }
            let location = full(path)
            if files.symbolicLinkTarget(location) != nil { return .symlink }
            if files.isFile(location) { return .file }
            return files.children(of: location).isEmpty ? nil : .directory
        }

        for (path, entry) in seal.entries {
            // A sealed path that would leave the bundle, or is no path at all, is never read.
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            guard !path.hasPrefix("/"), !path.contains("\0"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
                add(.signatureUnreadable, path, "the seal lists '\(path)', which is not a path inside the bundle: it was not read")
                continue
            }
            let found = kind(path)
            switch entry {
            case .file(let sha1, let sha256, let optional):
                guard found == .file else {
                    if !optional {
                        add(found == nil ? .resourceMissing : .resourceModified, path, found == nil
                            ? "\(path) is sealed but missing" : "\(path) is sealed as a file but is not one")
                    }
                    continue
                }
                let expected = sha256 ?? sha1 ?? []
                switch hash(full(path), files: files, kind: sha256 != nil ? .sha256 : .sha1, listed: present[path] == .file) {
                case .success(let actual) where actual == expected: break
                case .success: add(.resourceModified, path, "\(path) is not the file the seal lists (its \(sha256 != nil ? "SHA-256" : "SHA-1") differs)")
                case .failure(let reason): add(.signatureUnreadable, path, "\(path) could not be read to check its seal: \(reason)")
                }
            case .symlink(let target):
                guard found == .symlink, let actual = files.symbolicLinkTarget(full(path)) else {
                    add(found == nil ? .resourceMissing : .resourceModified, path, found == nil
                        ? "\(path) (a sealed link to \(target)) is missing" : "\(path) is sealed as a symbolic link to \(target) but is not a link")
                    continue
                }
                if actual != target { add(.resourceModified, path, "\(path) points to \(actual); the seal says \(target)") }
            case .nested(let cdhash, let optional):
                guard found != nil else {
                    if !optional { add(.resourceMissing, path, "the nested code \(path) is sealed but missing") }
                    continue
                }
                guard let hashes = nestedCDHashes(path) else {
                    add(.signatureUnreadable, path, "the nested code \(path) could not be read to check its cdhash")
                    continue
                }
                let sealed = Digest.hex(cdhash)
                if !hashes.contains(sealed) {
                    add(.nestedCodeModified, path, "the nested code \(path) has cdhash \(hashes.first ?? "none"); the seal lists \(sealed)")
                }
            }
        }

        // What the rules cover but the seal does not list: added files and nested code.
        for (path, found) in present where seal.entries[path] == nil {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let isNestedCode = found == .directory && isBundle(name) && ruled[path]?.nested == true
            guard found != .directory || isNestedCode, let decided = ruled[path] ?? rule(path), !decided.omit else { continue }
            add(.resourceAdded, path, isNestedCode ? "the nested code \(path) is not in the seal" : "\(path) is not in the seal, whose rules cover it")
        }
        if exhausted {
            add(.signatureUnreadable, "", "the seal's rules took more than \(ResourceSeal.matchingBudget) steps: files it does not "
                + "list were not all checked for additions")
        }
        return findings.sorted { ($0.path, $0.code.rawValue) < ($1.path, $1.code.rawValue) }
    }

    /// A folder that holds code of its own (`X.framework`, `Y.appex`, `Z.xpc`, …): nested code, not
    /// a folder of resources, where a `nested` rule covers it.
    static func isBundle(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return name.index(after: dot) != name.endIndex
    }

    static func hash(_ path: String, files: any BundleFiles, kind: StreamingDigest.Kind,
                     listed: Bool) -> Result<[UInt8], DecodeErrorReason> {
        do {
            let reader = try listed ? files.rangeReader(listed: path) : files.rangeReader(path)
            let digest = StreamingDigest(kind)
            var offset: UInt64 = 0
            while offset < reader.size {
                let count = Int(min(UInt64(chunkSize), reader.size - offset))
                digest.update(try reader.read(at: offset, count: count))
                offset += UInt64(count)
            }
            return .success(digest.finish())
        } catch {
            return .failure(DecodeErrorReason((error as? DecodeError)?.reason ?? "\(error)"))
        }
    }

    /// Why a file could not be hashed, as an Error for `Result`.
    struct DecodeErrorReason: Error, CustomStringConvertible {
        let description: String
        init(_ text: String) { description = text }
    }
}
