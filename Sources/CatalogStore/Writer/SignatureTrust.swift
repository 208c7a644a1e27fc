import CatalogCore

/// How far a profile's signature is trusted when one profile would renew (supersede) another
/// (README, "Renewals"): a profile renews only one whose signature it trusts at least as much, so a
/// file anyone can write never silences the alert of, or has pruned, a profile Apple signed.
enum SignatureTrust {
    /// `verified` 3, `untrusted` 2, `unsigned` (or never verified) 1, `invalid` and `error` 0.
    static func rank(_ status: ProfileSignature.Status?) -> Int {
        switch status {
        case .verified: return 3
        case .untrusted: return 2
        case .unsigned, nil: return 1
        case .invalid, .error: return 0
        }
    }

    /// The rank a profile needs to renew one whose signature is `status`: at least that one's, and
    /// never 0, so that an `invalid` or `error` profile renews nothing.
    static func needed(toRenew status: ProfileSignature.Status?) -> Int {
        max(rank(status), 1)
    }

    /// Whether a profile signed `newer` may renew one signed `older`.
    static func renews(_ newer: ProfileSignature.Status?, _ older: ProfileSignature.Status?) -> Bool {
        rank(newer) >= needed(toRenew: older)
    }

    /// ``renews(_:_:)`` in SQL, of two `signature` columns. Plain CASE, spelled the same on both
    /// engines; a condition on the row, not an ORDER BY term, so the supersession index still
    /// gives each group's profiles latest first.
    static func renews(_ newer: String, _ older: String) -> String {
        "\(sql(newer, rank)) >= \(sql(older, needed(toRenew:)))"
    }

    /// ``needed(toRenew:)`` of a `signature` column in SQL, to compare with a bound ``rank(_:)``.
    static func neededSQL(_ column: String) -> String {
        sql(column, needed(toRenew:))
    }

    /// `value` of each status (NULL: never verified) as a CASE on `column`.
    private static func sql(_ column: String, _ value: (ProfileSignature.Status?) -> Int) -> String {
        "CASE \(column)" + ProfileSignature.Status.allCases.map { " WHEN '\($0.rawValue)' THEN \(value($0))" }.joined()
            + " ELSE \(value(nil)) END"
    }
}
