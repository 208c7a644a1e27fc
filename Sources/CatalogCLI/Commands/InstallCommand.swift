import CatalogCore
import CatalogStore
import Foundation

/// `catalog install PROFILE...`: puts profiles where Xcode reads them, as a CI machine's set-up
/// script needs, refusing what Xcode would be handed in error: a profile not signed by Apple, or
/// one that has expired.
enum InstallCommand: Command {
    static let name = "install"
    static let abstract = "Install profiles where Xcode reads them (UUID.mobileprovision / .provisionprofile)."
    static let discussion: String? = """
        Copies each PROFILE into the selected Xcode's folder (Xcode 16 and later: ~/Library/Developer/
        Xcode/UserData/Provisioning Profiles; earlier: ~/Library/MobileDevice/Provisioning Profiles;
        the selected Xcode is $DEVELOPER_DIR, else xcode-select -p), or into --dir, which is required
        where there is no Xcode. Each is named by its UUID: .provisionprofile for a macOS profile,
        .mobileprovision otherwise. A file is written whole (a temporary file renamed into place, mode
        0644) or not at all; the same bytes already there are left alone (unchanged), other bytes under
        the same UUID are replaced. A profile whose signature is not Apple's (unsigned, untrusted,
        invalid) is refused unless --allow-untrusted, and one that has expired (days_left < 0 at
        --as-of) unless --allow-expired. What is installed is recorded in the catalogue as a location
        of this host, seen now (no ingest run: the nightly --max-age alarm is not reset by it).
        Exits 1 when any profile was refused or could not be installed; the others are installed.
        """
    static let arguments = [ArgumentSpec(name: "profile", help: "A .mobileprovision or .provisionprofile file.", variadic: true)]
    static let examples = [
        "catalog install build/AppStore.mobileprovision",
        "catalog install --dir \"$HOME/Library/MobileDevice/Provisioning Profiles\" *.mobileprovision",
    ]

    static let columns: [Column] = [
        Column(key: "action", header: "ACTION"),
        Column(key: "name", header: "NAME"),
        Column(key: "uuid", header: "UUID"),
        Column(key: "reason", header: "REASON"),
        Column(key: "destination", header: "DESTINATION"),
        Column(key: "path", header: "PATH"),
    ].ranked(["action", "name", "reason", "destination", "uuid", "path"])

    /// What happened to one profile.
    enum Action: String {
        case installed, unchanged, replaced, refused, failed
    }

    static func run(_ options: InstallOptions, _ context: CommandContext) throws -> Int32 {
        guard !options.paths.isEmpty else { throw UsageError(message: "give one or more profile files to install") }
        let folder = try options.folder ?? XcodeFolders.installFolder(context)
        var records: [JSONValue] = []
        var installed: [(profile: ProvisioningProfile, path: String)] = []
        var failures = 0
        for path in options.paths {
            var profile: ProvisioningProfile?
            let outcome: (Action, String?, String?)
            do {
                let decoded = try decode(path)
                profile = decoded.profile
                if let refusal = refusal(of: decoded.profile, options) {
                    outcome = (.refused, refusal, nil)
                } else {
                    let (action, destination) = try write(decoded.bytes, profile: decoded.profile, into: folder)
                    installed.append((decoded.profile, destination))
                    outcome = (action, nil, destination)
                }
            } catch let error as DecodeError {
                outcome = (.failed, error.message, nil)
            } catch let error as InstallError {
                outcome = (.failed, error.message, nil)
            }
            if outcome.0 == .refused || outcome.0 == .failed {
                failures += 1
                context.err("error: \(TextSanitizer.terminalSafe(path)): \(outcome.0.rawValue): \(TextSanitizer.terminalSafe(outcome.1 ?? ""))\n")
            }
            records.append(record(path: path, profile, action: outcome.0, reason: outcome.1, destination: outcome.2, asOf: options.query.asOf))
        }
        QuerySupport.print(records, columns: columns, options.query, context)
        if !installed.isEmpty { record(installed, options, context) }
        return failures == 0 ? 0 : 1
    }

    struct InstallError: Error {
        var message: String
    }

    /// The profile in `path` and its bytes, as they will be copied.
    static func decode(_ path: String) throws -> (profile: ProvisioningProfile, bytes: [UInt8]) {
        let bytes = try FileBytes.read(path, limit: ProfileDecoder.maximumSize)
        guard case .profile(let profile) = try FileDecoder.decode(bytes: bytes, path: path) else {
            throw InstallError(message: "not a provisioning profile")
        }
        return (profile, bytes)
    }

    /// Why `profile` is not installed, or nil: only Apple-signed, unexpired profiles unless allowed.
    static func refusal(of profile: ProvisioningProfile, _ options: InstallOptions) -> String? {
        let signature = profile.signature ?? ProfileSignature(.error, "not verified")
        if signature.status != .verified && !options.allowUntrusted {
            return "signature \(signature.status.rawValue): \(signature.reason) (--allow-untrusted installs it anyway)"
        }
        let left = DaysLeft.days(until: profile.effectiveExpirationDate, from: options.query.asOf)
        if left < 0 && !options.allowExpired {
            let what = profile.effectiveExpiryCause == .profile ? "it" : "its certificates"
            return "\(what) expired on \(ISO8601.format(profile.effectiveExpirationDate).prefix(10)) (--allow-expired installs it anyway)"
        }
        return nil
    }

    /// Xcode's name for an installed profile: its UUID, `.provisionprofile` for macOS.
    static func fileName(_ profile: ProvisioningProfile) -> String {
        let mac = profile.platforms.contains { $0 == "OSX" || $0 == "macOS" }
        return profile.uuid.uppercased() + (mac ? ".provisionprofile" : ".mobileprovision")
    }

    /// Writes `bytes` as `folder/UUID.ext` whole or not at all: a temporary file in the same folder,
    /// synced and renamed over the name.
    static func write(_ bytes: [UInt8], profile: ProvisioningProfile, into folder: String) throws -> (Action, String) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw InstallError(message: "cannot create \(folder): \(error.localizedDescription)")
        }
        let destination = folder + "/" + fileName(profile)
        let existing = FileManager.default.contents(atPath: destination)
        if let existing, existing.elementsEqual(bytes) { return (.unchanged, destination) }
        // A fresh name each time: a file left by a killed run never stands in the way.
        let temporary = folder + "/.\(fileName(profile)).catalog-\(UUID().uuidString)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw InstallError(message: "cannot write in \(folder): \(String(cString: strerror(errno)))") }
        var written = 0
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Foundation.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                written += count
            }
        }
        if failure == nil && fchmod(fd, 0o644) != 0 { failure = String(cString: strerror(errno)) }
        if failure == nil && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil && rename(temporary, destination) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw InstallError(message: "cannot write \(destination): \(failure)")
        }
        return (existing == nil ? .installed : .replaced, destination)
    }

    /// Records the installed files in the catalogue; a catalogue that cannot be written (a shared,
    /// read-only one) is a warning, since the profiles are installed either way.
    static func record(_ installed: [(profile: ProvisioningProfile, path: String)], _ options: InstallOptions,
                       _ context: CommandContext) {
        do {
            let host = options.host ?? HostName.defaultHost(for: options.query.database)
            let catalogue = try Catalogue.openForWriting(path: options.query.database, host: host, busyTimeout: 30)
            let now = Date()
            try catalogue.writeRun {
                for (profile, path) in installed {
                    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
                    try catalogue.writer.recordInstalledProfile(
                        profile, path: path, size: (attributes?[.size] as? NSNumber)?.int64Value ?? 0,
                        mtime: attributes?[.modificationDate] as? Date, at: now)
                }
            }
            CatalogueLocation.leaveReadableByReaders(catalogue, context)
        } catch {
            context.err("warning: \(TextSanitizer.terminalSafe(options.query.database)): installed, but not recorded in the catalogue: \(error)\n")
        }
    }

    static func record(path: String, _ profile: ProvisioningProfile?, action: Action, reason: String?, destination: String?,
                       asOf: Date) -> JSONValue {
        let fields: [(String, JSONValue)] = [
            ("type", .string("install")),
            ("path", .string(path)),
            ("uuid", .optional(profile?.uuid)),
            ("name", .optional(profile?.name)),
            ("team_id", .optional(profile?.teamID)),
            ("kind", .optional(profile?.kind.rawValue)),
            ("signature", .optional(profile?.signature?.status.rawValue)),
            ("effective_expiration_date", .optional(profile?.effectiveExpirationDate)),
            ("days_left", DaysLeft.json(until: profile?.effectiveExpirationDate, from: asOf)),
            ("action", .string(action.rawValue)),
            ("reason", .optional(reason)),
            ("destination", .optional(destination)),
        ]
        return .object(fields)
    }
}
