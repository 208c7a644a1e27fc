import Foundation

/// PostgreSQL connection strings as libpq reads them — a URI (`postgresql://…`, `postgres://…`) or
/// keyword/value pairs (`host=db dbname=catalog`) — and their redaction: every error message and log
/// line that shows a connection string shows ``redacted(_:)``, never the string itself.
///
/// Redaction removes the password wherever libpq would read one: the URI's userinfo
/// (`user:secret@host`), a `password` query parameter (also spelt with percent-escapes, which libpq
/// decodes), the `password` keyword (quoted or not), and a `dbname` value that is itself a connection
/// string (libpq expands it). It errs towards hiding too much: a URI whose password holds a raw `@`
/// hides everything up to the last `@`, and a keyword string libpq could not parse is hidden from
/// the point where parsing failed.
package enum ConnectionString {
    /// What stands where a password was.
    package static let mask = "***"

    /// The URI prefixes libpq accepts; only these select PostgreSQL (``CatalogueEngine``).
    package static let schemes = ["postgresql://", "postgres://"]

    /// True when `text` starts with `postgresql://` or `postgres://` (in any case).
    package static func isURI(_ text: String) -> Bool {
        let lowered = text.prefix(13).lowercased()
        return schemes.contains { lowered.hasPrefix($0) }
    }

    /// `text` with every password replaced by ``mask``.
    package static func redacted(_ text: String) -> String {
        redaction(of: text).text
    }

    /// The redacted text and the secrets it hid, as written.
    private static func redaction(of text: String) -> (text: String, secrets: [String]) {
        isURI(text) ? redactedURI(text) : redactedKeywords(text)
    }

    /// `message` (a libpq or server message about `connectionString`) with any password of the
    /// connection string that appears in it — as written or percent-decoded — replaced by ``mask``:
    /// libpq quotes a malformed percent-escape, password included, in its error.
    package static func redacted(message: String, connectionString: String) -> String {
        var message = message
        for secret in passwords(in: connectionString).sorted(by: { $0.count > $1.count }) where !secret.isEmpty {
            message = message.replacingOccurrences(of: secret, with: mask)
        }
        return message
    }

    /// Every password written in `text`: raw and, for a URI, percent-decoded.
    package static func passwords(in text: String) -> [String] {
        var found: [String] = []
        for secret in redaction(of: text).secrets where !secret.isEmpty {
            found.append(secret)
            if let decoded = percentDecoded(secret), decoded != secret { found.append(decoded) }
        }
        return found
    }

    // MARK: URI

    private static func redactedURI(_ text: String) -> (text: String, secrets: [String]) {
        let characters = Array(text)
        var secrets: [String] = []
        let schemeLength = text.lowercased().hasPrefix("postgresql://") ? 13 : 11
        var output = String(characters[..<schemeLength])
        var index = schemeLength

        // Userinfo: a password follows the first ':' when that ':' comes before the first '@'. It runs
        // to the last '@' (a raw '@' in a password would otherwise leave its tail in the host).
        let firstColon = characters[index...].firstIndex(of: ":")
        let firstAt = characters[index...].firstIndex(of: "@")
        if let firstColon, let firstAt, firstColon < firstAt, let lastAt = characters.lastIndex(of: "@") {
            output += String(characters[index...firstColon]) + mask
            secrets.append(String(characters[(firstColon + 1)..<lastAt]))
            index = lastAt
        }

        // Query: `password=` parameters (the key percent-decoded, as libpq does).
        guard let question = characters[index...].firstIndex(of: "?") else {
            return (output + String(characters[index...]), secrets)
        }
        output += String(characters[index...question])
        let query = String(characters[(question + 1)...])
        let (parameters, fragment) = splitFragment(query)
        output += parameters.split(separator: "&", omittingEmptySubsequences: false).map { parameter -> String in
            guard let equals = parameter.firstIndex(of: "=") else { return String(parameter) }
            let key = String(parameter[..<equals])
            let value = String(parameter[parameter.index(after: equals)...])
            let decodedKey = (percentDecoded(key) ?? key).lowercased()
            if decodedKey == "password" {
                secrets.append(value)
                return key + "=" + mask
            }
            if decodedKey == "dbname", let decoded = percentDecoded(value) {
                let nested = redaction(of: decoded)
                if !nested.secrets.isEmpty {
                    secrets += nested.secrets
                    return key + "=" + mask
                }
            }
            return String(parameter)
        }.joined(separator: "&")
        return (output + fragment, secrets)
    }

    /// Splits `query` at a `#`, keeping the `#…` part as written.
    private static func splitFragment(_ query: String) -> (String, String) {
        guard let hash = query.firstIndex(of: "#") else { return (query, "") }
        return (String(query[..<hash]), String(query[hash...]))
    }

    // MARK: Keyword/value pairs

    /// Follows libpq's `conninfo_parse`: `key = value` pairs separated by white space; a value is
    /// either single-quoted (`\'` and `\\` escape) or runs to the next white space (`\` escapes).
    private static func redactedKeywords(_ text: String) -> (text: String, secrets: [String]) {
        let characters = Array(text)
        var output = ""
        var secrets: [String] = []
        var index = 0
        func skipSpace() {
            while index < characters.count, characters[index].isWhitespace {
                output.append(characters[index])
                index += 1
            }
        }
        while true {
            skipSpace()
            guard index < characters.count else { return (output, secrets) }
            let keyStart = index
            while index < characters.count, characters[index] != "=", !characters[index].isWhitespace { index += 1 }
            let key = String(characters[keyStart..<index])
            var separator = ""
            while index < characters.count, characters[index].isWhitespace {
                separator.append(characters[index])
                index += 1
            }
            guard index < characters.count, characters[index] == "=" else {
                // Not `key=value`: libpq refuses it. Hide the rest rather than guess what it holds.
                secrets.append(String(characters[keyStart...]))
                return (output + mask, secrets)
            }
            separator.append("=")
            index += 1
            while index < characters.count, characters[index].isWhitespace {
                separator.append(characters[index])
                index += 1
            }
            let valueStart = index
            var value = ""
            var terminated = true
            if index < characters.count, characters[index] == "'" {
                index += 1
                terminated = false
                while index < characters.count {
                    let character = characters[index]
                    if character == "\\", index + 1 < characters.count {
                        value.append(characters[index + 1])
                        index += 2
                    } else if character == "'" {
                        index += 1
                        terminated = true
                        break
                    } else {
                        value.append(character)
                        index += 1
                    }
                }
            } else {
                while index < characters.count, !characters[index].isWhitespace {
                    if characters[index] == "\\", index + 1 < characters.count {
                        value.append(characters[index + 1])
                        index += 2
                    } else {
                        value.append(characters[index])
                        index += 1
                    }
                }
            }
            let written = String(characters[valueStart..<index])
            let lowerKey = key.lowercased()
            let nested = lowerKey == "dbname" && (value.contains("=") || isURI(value)) ? redaction(of: value) : nil
            if lowerKey == "password" || !terminated {
                output += key + separator + mask
                secrets += [value, written]
            } else if let nested, !nested.secrets.isEmpty {
                // libpq expands a dbname that is itself a connection string: redact that one too.
                output += key + separator + quoted(nested.text)
                secrets += nested.secrets
            } else {
                output += key + separator + written
            }
        }
    }

    /// A keyword value in single quotes, with `\` and `'` escaped.
    private static func quoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    // MARK: Helpers

    /// `%XX` escapes decoded as UTF-8; nil when an escape is malformed or the bytes are not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard utf8.count >= 2,
                  let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        return String(bytes: bytes, encoding: .utf8)
    }
}
