import Foundation
import Testing
@testable import CatalogCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The seal's rule patterns match as the C library's POSIX `regexec` does (what Apple compiles them
/// with), refuse what they cannot match faithfully, and never run away on a hostile pattern.
@Suite struct ResourceSealPatternTests {
    /// Every pattern of Xcode's iOS and macOS rules, and the grammar's corners.
    static let patterns: [String] = [
        "^.*", "^.*\\.lproj/", "^.*\\.lproj/locversion.plist$", "^Base\\.lproj/", "^Info\\.plist$", "^PkgInfo$",
        "^embedded\\.provisionprofile$", "^version\\.plist$", "^version.plist$", ".*\\.dSYM($|/)", "^(.*/)?\\.DS_Store$",
        "^[^/]+$", "^(Frameworks|SharedFrameworks|PlugIns|Plug-ins|XPCServices|Helpers|MacOS|Library/(Automator|Spotlight|LoginItems))/",
        "^Resources/", "^Resources/.*\\.lproj/", "^Resources/Base\\.lproj/",
        "^(Frameworks/[^/]+\\.framework/|PlugIns/[^/]+\\.appex/|PlugIns/[^/]+\\.appex/Frameworks/[^/]+\\.framework/|())SC_Info/[^/]+\\.(sinf|supf|supp)$",
        "^", "$", "^$", "a|b", "(ab)+c", "x{2,3}y", "x{2}", "x{2,}", "[[:digit:]]+$", "[[:upper:]][[:lower:]]",
        "[]a]", "[^]a]", "[a-]", "[-a]", "[.]", "a.c", "a\\.c", "(a*)*b", "(a|b)*c$", "^a$|^b", "lproj/$", "/", "x?y?z?$",
        "(x)(y)(z)", "\\|", "\\(a\\)",
    ]

    static let paths: [String] = [
        "", "a", "b", "c", "ab", "abc", "aac", "xxy", "xxxy", "xy", "y", "xyz", "Info.plist", "Info_plist", "PkgInfo",
        "PkgInfo2", "en.lproj/Main.strings", "en.lproj/locversion.plist", "Base.lproj/x.nib", "Resources/Base.lproj/x",
        "Resources/a.txt", "Frameworks/Kit.framework/Kit", "Frameworks/Kit.framework", "MacOS/Mac", "Library/LoginItems/H.app",
        "X.dSYM", "X.dSYM/Contents/Info.plist", "XdSYM", ".DS_Store", "a/.DS_Store", "a.DS_Store", "SC_Info/App.sinf",
        "PlugIns/W.appex/SC_Info/W.supf", "Frameworks/K.framework/SC_Info/K.supp", "embedded.provisionprofile",
        "version.plist", "versionXplist", "a]", "]", "-", ".", "\\", "a.c", "a-c", "Ab", "ab", "12", "x12", "aaaaaaaab",
        "lproj/", "a^b", "a$b", "}", "a}", "{", "|", "(a)", "a\nb",
    ]

    @Test func matchesAsPOSIXRegexecDoes() throws {
        var compared = 0
        for pattern in Self.patterns {
            let compiled = try ResourceRulePattern(pattern)
            var expression = regex_t()
            guard regcomp(&expression, pattern, REG_EXTENDED | REG_NOSUB) == 0 else {
                Issue.record("the C library refuses \(pattern)")
                continue
            }
            defer { regfree(&expression) }
            for path in Self.paths {
                var budget = 1_000_000
                let ours = compiled.matches(path.unicodeScalars.map(\.value), budget: &budget)
                let theirs = regexec(&expression, path, 0, nil, 0) == 0
                #expect(ours == theirs, "pattern \(pattern) on \(path.debugDescription): ours \(String(describing: ours)), regexec \(theirs)")
                compared += 1
            }
        }
        #expect(compared == Self.patterns.count * Self.paths.count)
    }

    /// Corners engines may differ on (so not compared with this platform's `regexec`), as POSIX
    /// and glibc read them: an empty pattern or branch matches the empty string, `^` and `$` anchor
    /// anywhere, a lone `}` is literal, `{,n}` is `{0,n}`, a one-character collating element or
    /// equivalence class is that character.
    @Test(arguments: [
        ("", "anything", true), ("", "", true), ("^(a||b)$", "", true), ("^(a||b)$", "b", true), ("^(a||b)$", "c", false),
        ("a^b", "a^b", false), ("^a", "a^b", true), ("a$b", "a$b", false), ("}", "}", true), ("a}", "xa}", true),
        ("\\{", "{", true), ("^x{,2}y$", "xxy", true), ("^x{,2}y$", "xxxy", false), ("^[[.-.]]$", "-", true),
        ("^[[=a=]]b$", "ab", true), ("^[[=a=]]b$", "bb", false),
    ])
    func cornersAsPOSIXReadsThem(_ pattern: String, _ path: String, _ expected: Bool) throws {
        var budget = 1_000
        #expect(try ResourceRulePattern(pattern).matches(path.unicodeScalars.map(\.value), budget: &budget) == expected)
    }

    @Test(arguments: [
        "(a", "a)", "*a", "a|*b", "(*a)", "+", "?", "[a", "[]", "[^]", "a{", "a{}", "a{,}", "a{2,1}", "a{256}", "a{1,x}",
        "[z-a]", "[[:nope:]]", "[[.ab.]]", "[[:alpha:]-z]", "[a-c-e]", "\\", "\\1", "(a)\\1", "\\w", "\\d", "^*", "$+",
        String(repeating: "(", count: 200) + "a" + String(repeating: ")", count: 200),
        "((a{255}){255}){255}", String(repeating: "a", count: ResourceRulePattern.maximumLength + 1),
    ])
    func refusesWhatItCannotMatchFaithfully(_ pattern: String) {
        #expect(throws: DecodeError.self, "\(pattern.prefix(40))") { try ResourceRulePattern(pattern) }
    }

    /// Patterns that make backtracking engines take exponential time cost steps in proportion to
    /// the path here, and a budget stops any run.
    @Test func hostilePatternsStayLinear() throws {
        let path = [UInt32](repeating: UInt32(UInt8(ascii: "a")), count: 10_000)
        for pattern in ["(a*)*b", "((a|a)*)*c", "(a|aa)+$x", "^(a?){30}a{30}$", "(.*){1,32}z"] {
            let compiled = try ResourceRulePattern(pattern)
            var budget = 50_000_000
            let started = ContinuousClock.now
            #expect(compiled.matches(path, budget: &budget) == false, "\(pattern)")
            #expect(ContinuousClock.now - started < .seconds(20), "\(pattern)")
            #expect(budget > 0, "\(pattern)")
        }
        var small = 100
        #expect(try ResourceRulePattern("(a*)*b").matches(path, budget: &small) == nil)
        #expect(small < 0)
    }

    /// Paths are matched by Unicode scalar, as a UTF-8 locale's `regexec` does.
    @Test func matchesByUnicodeScalar() throws {
        var budget = 1_000
        #expect(try ResourceRulePattern("^r.sum.\\.txt$").matches("résumé.txt".unicodeScalars.map(\.value), budget: &budget) == true)
        #expect(try ResourceRulePattern("^[é]+$").matches("éé".unicodeScalars.map(\.value), budget: &budget) == true)
        #expect(try ResourceRulePattern("^[[:alpha:]]+$").matches("Ωmega".unicodeScalars.map(\.value), budget: &budget) == true)
        #expect(try ResourceRulePattern("^.$").matches("é".unicodeScalars.map(\.value), budget: &budget) == true)
    }
}
