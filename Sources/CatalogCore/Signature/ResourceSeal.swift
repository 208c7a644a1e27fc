import Foundation

/// A bundle's resource seal, `_CodeSignature/CodeResources`: the files it lists with their hashes
/// (`files2`, else the legacy SHA-1 `files`) and the rules that say which files it covers (`rules2`,
/// else `rules`). The rules are POSIX extended regular expressions, as Apple's ResourceBuilder
/// compiles them, matched against paths relative to the seal's base by ``ResourceRulePattern``,
/// whose cost is bounded: the patterns come from the file.
package struct ResourceSeal {
    package enum Entry: Equatable {
        /// A file, by its SHA-1 (`hash`) and SHA-256 (`hash2`) when given.
        case file(sha1: [UInt8]?, sha256: [UInt8]?, optional: Bool)
        /// Nested code sealed by its cdhash (the macOS form).
        case nested(cdhash: [UInt8], optional: Bool)
        case symlink(target: String)
    }

    package struct Rule {
        package let pattern: String
        package let weight: Double
        package let omit: Bool
        package let optional: Bool
        package let nested: Bool
        let expression: ResourceRulePattern
    }

    /// Most rules and files a seal may hold: real seals have a dozen rules and thousands of files.
    static let maximumRules = 256
    static let maximumEntries = 200_000

    package let entries: [String: Entry]
    package let rules: [Rule]

    /// `bytes` is the seal's content, `path` what errors name. Throws `DecodeError`.
    package init(bytes: [UInt8], path: String) throws {
        func fail(_ reason: String) -> DecodeError { DecodeError(.malformedPlist, "resource seal: \(reason)", path: path) }
        let root: PlistDictionary
        do {
            root = try PropertyListReader.parseDictionary(bytes, "CodeResources").dictionary
        } catch let error as DecodeError {
            throw fail(error.reason)
        }
        let modern = root["files2"]?.dictionary
        guard let files = modern ?? root["files"]?.dictionary else { throw fail("neither files2 nor files is a dictionary") }
        guard let ruleSet = (modern != nil ? root["rules2"] : root["rules"])?.dictionary ?? root["rules"]?.dictionary else {
            throw fail("neither rules2 nor rules is a dictionary")
        }
        guard files.keys.count <= Self.maximumEntries, ruleSet.keys.count <= Self.maximumRules else {
            throw fail("\(files.keys.count) files and \(ruleSet.keys.count) rules are more than are checked")
        }
        var entries: [String: Entry] = [:]
        for (name, value) in files {
            switch value {
            case .data(let sha1):
                entries[name] = .file(sha1: sha1, sha256: nil, optional: false)
            case .dictionary(let fields):
                let optional = fields["optional"]?.bool ?? false
                if let target = fields["symlink"]?.string {
                    entries[name] = .symlink(target: target)
                } else if let cdhash = fields["cdhash"]?.data {
                    entries[name] = .nested(cdhash: cdhash, optional: optional)
                } else if fields["hash"]?.data != nil || fields["hash2"]?.data != nil {
                    entries[name] = .file(sha1: fields["hash"]?.data, sha256: fields["hash2"]?.data, optional: optional)
                } else {
                    throw fail("the entry for \(name) has no hash, cdhash or symlink")
                }
            default:
                throw fail("the entry for \(name) is a \(value.typeName)")
            }
        }
        var rules: [Rule] = []
        for (pattern, value) in ruleSet {
            var weight = 1.0, omit = false, optional = false, nested = false
            switch value {
            case .bool(let sealed): omit = !sealed
            case .dictionary(let fields):
                weight = fields["weight"].flatMap { value -> Double? in
                    if case .real(let number) = value { return number }
                    return value.integer.map(Double.init)
                } ?? 1
                omit = fields["omit"]?.bool ?? false
                optional = fields["optional"]?.bool ?? false
                nested = fields["nested"]?.bool ?? false
            default:
                throw fail("the rule \(pattern) is a \(value.typeName)")
            }
            let expression: ResourceRulePattern
            do {
                expression = try ResourceRulePattern.cached(pattern)
            } catch let error as DecodeError {
                throw fail("the rule \(pattern) is not a regular expression this reader matches faithfully: \(error.reason)")
            }
            rules.append(Rule(pattern: pattern, weight: weight, omit: omit, optional: optional, nested: nested,
                              expression: expression))
        }
        self.entries = entries
        self.rules = rules
    }

    /// Steps a seal's rules may take over one bundle before the check gives up and says so.
    static let matchingBudget = 500_000_000

    /// The rule that decides `path`: the highest weight among those that match; on equal weight an
    /// omitting rule wins (real seals leave out `Info.plist` by `^Info\.plist$` omit 20 against `^` 20).
    /// Throws ``BudgetExhausted`` once the rules have taken `budget` steps.
    package func rule(for path: String, budget: inout Int) throws(BudgetExhausted) -> Rule? {
        let scalars = path.unicodeScalars.map(\.value)
        var best: Rule?
        for rule in rules {
            guard let matched = rule.expression.matches(scalars, budget: &budget) else { throw BudgetExhausted() }
            guard matched else { continue }
            guard let current = best else { best = rule; continue }
            if rule.weight > current.weight || (rule.weight == current.weight && rule.omit && !current.omit) { best = rule }
        }
        return best
    }

    /// ``rule(for:budget:)`` for one path, with the whole budget.
    package func rule(for path: String) -> Rule? {
        var budget = Self.matchingBudget
        return try? rule(for: path, budget: &budget)
    }

    package struct BudgetExhausted: Error {}
}
