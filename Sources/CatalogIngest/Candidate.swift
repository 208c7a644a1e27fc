import Foundation

/// A path the walk found worth decoding, with what its name says it is.
package struct Candidate: Sendable, Hashable {
    package enum Kind: String, Sendable {
        case profile
        case app
        case xcarchive
        case ipa
        case infoPlist
        /// A `.dSYM` folder outside an archive.
        case dsym
        /// A `.zip`: catalogued when it holds dSYMs, else left out.
        case zip
    }

    package var kind: Kind
    package var path: String
    /// For nested bundles (`PlugIns/*.appex`, `Watch/*.app`): the containing app's path.
    package var parentPath: String?

    package init(kind: Kind, path: String, parentPath: String? = nil) {
        self.kind = kind
        self.path = path
        self.parentPath = parentPath
    }
}
