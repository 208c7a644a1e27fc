import Foundation

extension BuildArtifact {
    /// Reads the Mach-O files of the app at `app` inside `files` (see ``BuildBinaryReader``) and,
    /// for an archive, those of the dSYMs under `debugSymbols`. The app's Info.plist and embedded
    /// profile are the ones already read into this artifact.
    package mutating func readBinaries(from files: any BundleFiles, app: String?, debugSymbols: String? = nil,
                                       trust: TrustAnchors? = ProfileDecoder.defaultTrust) {
        var reader = BuildBinaryReader(files: files, trust: trust)
        if let app {
            reader.readApp(at: app, info: info,
                           embeddedProfile: (embeddedProfileSHA256 != nil || profileError != nil, profile))
        }
        executables = reader.executables
        signingSubjects = reader.subjects
        integrityProblems = reader.integrityProblems
        if let debugSymbols { dsyms = reader.readDebugSymbols(in: debugSymbols) }
    }

    /// Why the build would not install or pass App Store processing, judged at `asOf` (profile and
    /// certificate expiry): ``integrityProblems``, then ``SigningCheck`` over every
    /// ``signingSubjects`` entry, the app first.
    ///
    /// ```swift
    /// let build = try BuildArtifact(contentsOf: URL(fileURLWithPath: "Example.ipa"))
    /// for problem in build.signingProblems(asOf: Date()) {
    ///     print(problem.code.rawValue, problem.executable, problem.message)
    /// }
    /// ```
    public func signingProblems(asOf: Date) -> [SigningProblem] {
        integrityProblems + signingSubjects.flatMap { SigningCheck.problems($0, asOf: asOf) }
    }
}
