import Foundation

extension ResourceRulePattern {
    /// A compiled pattern and how compiling it failed, for the thread's cache.
    private final class Compiled {
        let result: Result<ResourceRulePattern, any Error>
        init(_ result: Result<ResourceRulePattern, any Error>) { self.result = result }
    }

    /// The pattern compiled once per thread: every bundle's seal carries the same dozen rules.
    /// Kept for speed (cold ingest, bench.py integrity_extra).
    static func cached(_ source: String) throws -> ResourceRulePattern {
        let store = Thread.current.threadDictionary
        let key = "catalog.rule." + source
        if let known = store[key] as? Compiled { return try known.result.get() }
        let compiled = Compiled(Result { try ResourceRulePattern(source) })
        if store.count < 4096 { store[key] = compiled }
        return try compiled.result.get()
    }
}
