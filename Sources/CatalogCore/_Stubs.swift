// TEMPORARY: replaced by helpers' files before merge.
import Foundation
package enum PropertyListReader { package static func parse(_ bytes: [UInt8]) throws -> (value: PlistValue, format: PlistFormat) { throw DecodeError(.malformedPlist, "stub") }; package static let maximumDepth = 128 }
