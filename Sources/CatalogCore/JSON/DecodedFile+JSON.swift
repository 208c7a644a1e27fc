
import Foundation

// The JSON shape of decoded files. Key names are a contract with users' scripts, documented in
// docs/json-schema.md (a test checks every command's output against it): add keys, rename only
// on purpose, and say so in the README and CHANGELOG.md.

extension ProvisioningProfile {
    package var json: JSONValue {
        .object([
            ("type", .string("profile")),
            ("uuid", .string(uuid)),
            ("name", .string(name)),
            ("app_id_name", .optional(appIDName)),
            ("team_id", .optional(teamID)),
            ("team_name", .optional(teamName)),
            ("platforms", .strings(platforms)),
            ("os", .string(PlatformName(profilePlatforms: platforms).rawValue)),
            ("kind", .string(kind.rawValue)),
            ("xcode_managed", .optional(xcodeManaged)),
            ("creation_date", .date(creationDate)),
            ("expiration_date", .date(expirationDate)),
            ("effective_expiration_date", .date(effectiveExpirationDate)),
            ("expiry_cause", .string(effectiveExpiryCause.rawValue)),
            ("application_identifier", .optional(applicationIdentifier)),
            ("application_identifier_prefixes", .strings(applicationIdentifierPrefixes)),
            ("team_identifiers", .strings(teamIdentifiers)),
            ("bundle_id", .optional(bundleID)),
            ("aps_environment", .optional(apsEnvironment)),
            ("get_task_allow", .optional(getTaskAllow)),
            ("device_count", .int(Int64(devices.count))),
            ("devices", .strings(devices)),
            ("provisions_all_devices", .bool(provisionsAllDevices)),
            ("ppq_check", .optional(ppqCheck)),
            ("entitlements", entitlements.json),
            ("certificates", .array(certificates.map(\.json))),
            ("undecodable_certificates", .array(undecodableCertificates.map(\.json))),
            ("time_to_live", .optional(timeToLive)),
            ("version", .optional(version)),
            ("der_encoded_profile_size", .optional(derEncodedProfile?.count)),
            ("unknown_keys", unknownKeys.json),
            ("sha256", .string(sha256)),
            // Null when verification was not run.
            ("signature", .optional(signature?.status.rawValue)),
            ("signature_reason", .optional(signature?.reason)),
            ("der_profile", .string(derProfile.status.rawValue)),
            ("der_profile_differences", .strings(derProfile.differences)),
            ("envelope_trailing_bytes", .int(Int64(envelopeTrailingBytes))),
        ])
    }
}

extension UndecodableCertificate {
    package var json: JSONValue {
        .object([
            ("index", .int(Int64(index))),
            ("size", .int(Int64(size))),
            ("sha1", .string(sha1)),
            ("sha256", .string(sha256)),
            ("reason", .string(reason)),
        ])
    }
}

extension DeveloperCertificate {
    package var json: JSONValue {
        .object([
            ("common_name", .optional(commonName)),
            ("team_id", .optional(teamID)),
            ("organization", .optional(organization)),
            ("issuer_common_name", .optional(issuerCommonName)),
            ("serial", .string(serial)),
            ("not_before", .date(notBefore)),
            ("not_after", .date(notAfter)),
            ("sha1", .string(sha1)),
            ("sha256", .string(sha256)),
            ("certificate_type", .optional(type?.rawValue)),
        ])
    }
}

extension AppInfo {
    /// The Info.plist fields, shared by `info-plist` objects and bundle objects.
    package var jsonFields: [(String, JSONValue)] {
        [
            ("bundle_id", .optional(bundleID)),
            ("short_version", .string(shortVersion)),
            ("build", .string(build)),
            ("formatted_version", .string(formattedVersion)),
            ("name", .optional(name)),
            ("display_name", .optional(displayName)),
            ("package_type", .optional(packageType)),
            ("executable", .optional(executable)),
            ("platform", .optional(platform)),
            ("os", .optional(platform.flatMap(PlatformName.init(typed:))?.rawValue)),
            ("minimum_os_version", .optional(minimumOSVersion)),
            ("unresolved", .bool(unresolved)),
            ("format", .string(format.rawValue)),
        ]
    }
}

extension BuildArtifact {
    package var json: JSONValue { json(asOf: Date()) }

    /// The build's object, its signing problems judged at `asOf`.
    package func json(asOf: Date) -> JSONValue {
        var fields: [(String, JSONValue)] = [("type", .string("build")), ("source_kind", .string(sourceKind.rawValue)),
                                             ("path", .string(path))]
        fields += info.jsonFields
        fields += [
            ("app_path", .optional(appPath)),
            ("profile", profile?.json ?? .null),
            ("profile_error", .optional(profileError?.message)),
        ]
        if sourceKind != .plist {
            fields += [
                ("executables", .array(executables.map(\.json))),
                ("signing_problems", .array(signingProblems(asOf: asOf).map(\.json))),
            ]
        }
        if sourceKind == .xcarchive {
            fields += [
                ("archived_at", .optional(archivedAt)),
                ("scheme", .optional(scheme)),
                ("signing_identity", .optional(signingIdentity)),
                ("team_id", .optional(teamID)),
                ("dsyms", .array(dsyms.map(\.json))),
            ]
        }
        return .object(fields)
    }
}

extension MachOFile {
    /// `[{arch, uuid}]`, one per slice in file order.
    package var architecturesJSON: JSONValue {
        .array(slices.map { .object([("arch", .string($0.architecture)), ("uuid", .optional($0.uuid))]) })
    }

    /// The file's error, else the first slice's signature error: what makes it less than fully read.
    package func firstError(_ error: DecodeError?) -> DecodeError? {
        error ?? slices.lazy.compactMap(\.codeSignatureError).first
    }
}

extension BuildExecutable {
    package var json: JSONValue {
        .object([
            ("role", .string(role.rawValue)),
            ("path", .string(path)),
            ("bundle_id", .optional(bundleID)),
            ("architectures", binary?.architecturesJSON ?? .array([])),
            ("code_signature", codeSignature?.json ?? .null),
            ("error", .optional((binary?.firstError(error) ?? error)?.message)),
        ])
    }
}

extension CodeSignature {
    package var json: JSONValue {
        .object([
            ("identifier", .optional(identifier)),
            ("team_id", .optional(teamID)),
            ("cdhash", .optional(cdhash)),
            ("certificate_sha1", .optional(signingCertificate?.sha1)),
            ("certificate_name", .optional(signingCertificate?.commonName)),
            ("entitlements", (claimedEntitlements ?? PlistDictionary()).json),
        ])
    }
}

extension DebugSymbols {
    package var json: JSONValue {
        .object([
            ("path", .string(path)),
            ("architectures", binary?.architecturesJSON ?? .array([])),
            ("error", .optional((binary?.firstError(error) ?? error)?.message)),
        ])
    }
}

extension SigningProblem {
    package var json: JSONValue {
        .object([("code", .string(code.rawValue)), ("executable", .string(executable)), ("message", .string(message))])
    }
}

extension DecodedFile {
    /// What `decode` prints; a build's signing problems are judged at `asOf`.
    package func json(path: String, asOf: Date = Date()) -> JSONValue {
        switch self {
        case .profile(let profile):
            guard case .object(var fields) = profile.json else { return profile.json }
            fields.insert(("path", .string(path)), at: 1)
            return .object(fields)
        case .infoPlist(let info):
            // A stray Info.plist is catalogued as a build of source kind `plist`; decode says the same.
            return .object([("type", .string("build")), ("source_kind", .string(BuildArtifact.SourceKind.plist.rawValue)),
                             ("path", .string(path))] + info.jsonFields)
        case .build(let artifact):
            return artifact.json(asOf: asOf)
        }
    }
}
