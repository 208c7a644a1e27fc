/// What a developer certificate signs for, as Apple's developer portal names it: read from the
/// extensions Apple marks its certificates with (OID 1.2.840.113635.100.6.1.N), else from the
/// common name's prefix (`Apple Development: Jane Doe (…)`), which Apple sets to the same name.
public enum CertificateType: String, Sendable, CaseIterable, Codable {
    case appleDevelopment = "Apple Development"
    case appleDistribution = "Apple Distribution"
    case iPhoneDeveloper = "iPhone Developer"
    case iPhoneDistribution = "iPhone Distribution"
    case macDeveloper = "Mac Developer"
    case macAppDistribution = "3rd Party Mac Developer Application"
    case macInstallerDistribution = "3rd Party Mac Developer Installer"
    case developerIDApplication = "Developer ID Application"
    case developerIDInstaller = "Developer ID Installer"

    /// From the Apple extension numbers: 2 iOS development, 12 Mac development (both: the unified
    /// Apple Development of 2019), 4 iOS distribution, 7 Mac App Store (both: Apple Distribution),
    /// 8 Mac installer, 13 and 14 Developer ID. Nil when none is present.
    static func fromExtensions(_ numbers: [UInt8]) -> CertificateType? {
        let marks = Set(numbers)
        if marks.contains(13) { return .developerIDApplication }
        if marks.contains(14) { return .developerIDInstaller }
        if marks.contains(2) { return marks.contains(12) ? .appleDevelopment : .iPhoneDeveloper }
        if marks.contains(4) { return marks.contains(7) ? .appleDistribution : .iPhoneDistribution }
        if marks.contains(12) { return .macDeveloper }
        if marks.contains(7) { return .macAppDistribution }
        if marks.contains(8) { return .macInstallerDistribution }
        return nil
    }

    /// From a common name `Type: Holder (ID)`, case-sensitively as Apple writes it.
    static func fromCommonName(_ commonName: String?) -> CertificateType? {
        guard let commonName, let colon = commonName.firstIndex(of: ":") else { return nil }
        return CertificateType(rawValue: String(commonName[..<colon]))
    }

    /// The type of a certificate: its extensions first, then its common name.
    static func of(extensions numbers: [UInt8], commonName: String?) -> CertificateType? {
        fromExtensions(numbers) ?? fromCommonName(commonName)
    }
}
