import CatalogCore
import CatalogStore
import Foundation

/// `catalog verify FILE|BUILD|UUID...`: checks profile signatures now, and a build's signature
/// against its embedded profile, and prints each verdict.
enum VerifyCommand: Command {
    static let name = "verify"
    static let abstract = "Verify profiles' signatures (CMS, chain to Apple's pinned roots, DER copy) and builds' code signatures."
    static let discussion: String? = """
        A FILE (profile, .app, .xcarchive, .ipa or a zip of one .app) is decoded and its profile verified. A UUID is
        looked up in the catalogue and the profile file at one of its present locations verified
        again; when none is readable, the verdict stored at ingest is printed (source: catalogue).
        Statuses: verified, unsigned, invalid, untrusted, error. A build's code is checked as
        codesign --verify --deep --strict checks it: every page, the Info.plist, entitlements and
        resource seal against the slots that bind them, every sealed file and nested code, and the
        CMS signature over the CodeDirectory chained to Apple's roots (signature-unreadable,
        signature-invalid, certificate-not-apple, code-modified, info-plist-modified,
        resources-seal-modified, entitlements-modified, entitlements-mismatch, resource-modified,
        resource-missing, resource-added, nested-code-modified). Its code signatures are also
        checked against its embedded profiles (unsigned, ad-hoc, no-profile,
        certificate-not-in-profile, team-mismatch, bundle-id-not-covered, entitlement-not-allowed,
        profile-expired, certificate-expired, get-task-allow-mismatch; the dated ones at --as-of).
        What could not be read is a problem, never a pass.
        A build's row also answers who signed it (signer_name, signer_sha1: the app executable's
        signing certificate), its team, its profile (profile_name, profile_uuid, profile_kind) and
        when it stops launching (launches_until, launches_until_cause, launches_until_reason; see
        docs/trust.md, "When a build stops launching"); a profile's row has them null.
        Exits 1 unless every profile is verified and no build has a signing problem.
        No revocation check: that needs the network.
        """
    static let arguments = [ArgumentSpec(name: "profile", help: "A profile file, build (.app, .ipa, .xcarchive, .zip of an .app), or a catalogued profile UUID.", variadic: true)]
    static let examples = [
        "catalog verify App.mobileprovision",
        "catalog verify MyApp.xcarchive --as-of 2027-01-01",
        "catalog verify 6F1C2E6A-1B0E-4C41-9E53-2D3B4A5C6D7E",
    ]

    /// A build's one-row answer (problems, when it stops launching, who signed it, with which
    /// profile) before the profile's verdict details; the build-only columns leave a table of
    /// profiles alone.
    static let columns: [Column] = [
        Column(key: "signature", header: "SIGNATURE"),
        Column(key: "signing_problems", header: "PROBLEMS", display: problemsText),
        Column(key: "launches_until", header: "LAUNCHES UNTIL", display: RelativeTime.day, tableOnlyWhenSet: true),
        Column(key: "launches_until_cause", header: "BY", tableOnlyWhenSet: true),
        Column(key: "signer_name", header: "SIGNER", tableOnlyWhenSet: true),
        Column(key: "team_id", header: "TEAM", tableOnlyWhenSet: true),
        Column(key: "profile_name", header: "PROFILE", tableOnlyWhenSet: true),
        Column(key: "profile_kind", header: "KIND", tableOnlyWhenSet: true),
        Column(key: "uuid", header: "UUID"),
        Column(key: "der_profile", header: "DER COPY"),
        Column(key: "signature_reason", header: "REASON"),
        Column(key: "path", header: "PATH"),
    ].ranked(["signature", "path", "signing_problems", "launches_until", "signer_name", "launches_until_cause",
              "profile_name", "team_id", "profile_kind", "signature_reason", "uuid", "der_profile"])

    /// A table's cell: each problem's code and the executable it concerns; the messages are in JSON.
    @Sendable static func problemsText(_ value: JSONValue) -> String {
        guard case .array(let problems) = value else { return "" }
        if problems.isEmpty { return "none" }
        return problems.map { problem in
            let code = problem["code"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "?"
            let executable = problem["executable"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "?"
            return "\(code) (\(executable))"
        }.joined(separator: ", ")
    }

    static func run(_ options: VerifyOptions, _ context: CommandContext) throws -> Int32 {
        var queries: CatalogQueries?
        var records: [JSONValue] = []
        for target in options.targets {
            if FileManager.default.fileExists(atPath: target) {
                records.append(verifyFile(target, asOf: options.query.asOf))
                continue
            }
            guard UUID(uuidString: target) != nil else {
                // Said on stderr too: a mistyped path in a terminal must not pass for a verdict.
                context.err("error: \(target): no such file, and not a profile UUID\n")
                records.append(record(path: target, uuid: nil, .error, "no such file, and not a profile UUID", der: nil, source: "file"))
                continue
            }
            // The catalogue is opened only when a UUID asks for it (files alone need none).
            let catalogue = try queries ?? QuerySupport.queries(options.query, context)
            queries = catalogue
            guard let stored = try catalogue.storedSignature(uuid: target) else {
                records.append(record(path: nil, uuid: target.uppercased(), .error, "no profile \(target.uppercased()) in the catalogue",
                                      der: nil, source: "catalogue"))
                continue
            }
            if let path = stored.paths.first(where: { FileManager.default.isReadableFile(atPath: $0) }) {
                records.append(verifyFile(path, asOf: options.query.asOf))
            } else {
                let status = stored.signature
                records.append(record(path: stored.paths.first, uuid: stored.uuid, status ?? .error,
                                      stored.reason ?? "never verified (catalogued before verification; run ingest --full)",
                                      der: stored.derProfile?.rawValue, source: "catalogue"))
            }
        }
        QuerySupport.print(records, columns: columns, options.query, context)
        let allVerified = records.allSatisfy { $0["signature"] == .string(ProfileSignature.Status.verified.rawValue) }
        let noProblem = records.allSatisfy { $0["signing_problems"] == .null || $0["signing_problems"] == .array([]) }
        return allVerified && noProblem ? 0 : 1
    }

    /// A profile's verdict; for a build, its embedded profile's and its signing problems at `asOf`.
    static func verifyFile(_ path: String, asOf: Date) -> JSONValue {
        do {
            let profile: ProvisioningProfile
            switch try FileDecoder.decode(path: path) {
            case .profile(let decoded): profile = decoded
            case .build(let artifact):
                let problems = artifact.signingProblems(asOf: asOf)
                let facts = BuildFacts(artifact)
                guard let embedded = artifact.profile else {
                    let why = artifact.profileError.map { "embedded profile: \($0.message)" } ?? "no embedded profile"
                    return record(path: path, uuid: nil, .error, why, der: nil, problems: problems, build: facts, source: "file")
                }
                let signature = embedded.signature ?? ProfileSignature(.error, "not verified")
                return record(path: path, uuid: embedded.uuid, signature.status, signature.reason,
                              der: embedded.derProfile.status.rawValue, differences: embedded.derProfile.differences,
                              problems: problems, build: facts, source: "file")
            case .infoPlist:
                return record(path: path, uuid: nil, .error, "an Info.plist, not a provisioning profile", der: nil, source: "file")
            }
            let signature = profile.signature ?? ProfileSignature(.error, "not verified")
            return record(path: path, uuid: profile.uuid, signature.status, signature.reason,
                          der: profile.derProfile.status.rawValue, differences: profile.derProfile.differences, source: "file")
        } catch let error as DecodeError {
            return record(path: path, uuid: nil, .error, error.message, der: nil, source: "file")
        } catch {
            return record(path: path, uuid: nil, .error, "\(error)", der: nil, source: "file")
        }
    }

    /// What a build's row says beside its profile's verdict: who signed the app, with which
    /// profile, and when the build stops launching.
    struct BuildFacts {
        var signer: DeveloperCertificate?
        var teamID: String?
        var profile: ProvisioningProfile?
        var launchLimit: LaunchLimit?

        init(_ artifact: BuildArtifact) {
            // The app's own executable (the first subject) is what installing and launching check first.
            if case .signed(let signature) = artifact.signingSubjects.first?.binary {
                signer = signature.signingCertificate
                teamID = signature.teamID
            }
            profile = artifact.profile
            teamID = teamID ?? artifact.teamID ?? artifact.profile?.teamID
            launchLimit = artifact.launchLimit
        }
    }

    static func record(path: String?, uuid: String?, _ status: ProfileSignature.Status, _ reason: String,
                       der: String?, differences: [String] = [], problems: [SigningProblem]? = nil,
                       build: BuildFacts? = nil, source: String) -> JSONValue {
        .object([
            ("type", .string("signature")),
            ("path", .optional(path)),
            ("uuid", .optional(uuid)),
            ("signature", .string(status.rawValue)),
            ("signature_reason", .string(reason)),
            ("der_profile", .optional(der)),
            ("der_profile_differences", .strings(differences)),
            ("source", .string(source)),
            // Null for a profile: only a build has code signatures to check.
            ("signing_problems", problems.map { .array($0.map(\.json)) } ?? .null),
            // Null for a profile too: these describe a build.
            ("signer_name", .optional(build?.signer?.commonName)),
            ("signer_sha1", .optional(build?.signer?.sha1)),
            ("team_id", .optional(build?.teamID)),
            ("profile_name", .optional(build?.profile?.name)),
            ("profile_uuid", .optional(build?.profile?.uuid)),
            ("profile_kind", .optional(build?.profile?.kind.rawValue)),
            ("launches_until", .optional(build?.launchLimit?.date)),
            ("launches_until_cause", .optional(build?.launchLimit?.cause.rawValue)),
            ("launches_until_executable", .optional(build?.launchLimit?.executable)),
            ("launches_until_reason", .optional(build?.launchLimit?.reason)),
        ])
    }
}
