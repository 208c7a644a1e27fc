import CatalogCore
import Foundation

/// What a catalogued build was signed with, as the ingest read it: its executables and an archive's
/// dSYMs (slices and signatures), and its signing problems at the query's date.
package struct BuildSigning: Sendable, Equatable {
    package var executables: [CataloguedBinary]
    package var dsyms: [CataloguedBinary]
    /// In ``SigningCheck``'s order; a dated one only when its ``SigningProblem/date`` is before the
    /// query's date.
    package var problems: [SigningProblem]

    package init(executables: [CataloguedBinary] = [], dsyms: [CataloguedBinary] = [], problems: [SigningProblem] = []) {
        self.executables = executables
        self.dsyms = dsyms
        self.problems = problems
    }

    /// The first problem's code in the order ``SigningProblem/Code`` lists them; nil when none.
    package var firstProblem: SigningProblem.Code? {
        let order = SigningProblem.Code.allCases
        return problems.map(\.code).min { (order.firstIndex(of: $0) ?? 0) < (order.firstIndex(of: $1) ?? 0) }
    }

    /// `ok`, or the first problem's code; nil when there is none but the app's own executable was not
    /// found or not read, since then nothing was checked.
    package var status: String? {
        if let first = firstProblem { return first.rawValue }
        guard let main = executables.first(where: { $0.role == .main }), main.error == nil else { return nil }
        return "ok"
    }

    /// The certificate the app's own executable was signed with (its common name); nil when it is
    /// unsigned, ad hoc or not read.
    package var mainCertificateName: String? {
        executables.first { $0.role == .main }?.signature?.certificateName
    }
}

/// One Mach-O file of a catalogued build (an executable, or a dSYM's DWARF binary), as `decode`
/// gives it.
package struct CataloguedBinary: Sendable, Equatable {
    package struct Architecture: Sendable, Equatable {
        package var arch: String
        package var uuid: String?
    }

    /// The first signed slice's signature.
    package struct Signature: Sendable, Equatable {
        package var identifier: String?
        package var teamID: String?
        package var cdhash: String?
        package var certificateSHA1: String?
        package var certificateName: String?
        /// The signed entitlements, keys sorted.
        package var entitlements: JSONValue
    }

    /// Nil for a dSYM.
    package var role: BuildExecutable.Role?
    package var path: String
    package var bundleID: String?
    package var architectures: [Architecture]
    package var signature: Signature?
    /// Why the file or its signature could not be read.
    package var error: String?
}
