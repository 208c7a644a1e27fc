// TEMPORARY: replaced by helpers' files before merge.
import Foundation
package struct CMSSignedData { package let contentType: String = ""; package let content: [UInt8] = []; package let certificates: [[UInt8]] = []; package init(bytes: [UInt8]) throws {} }
extension DeveloperCertificate { package init(der: [UInt8]) throws { throw DecodeError(.malformedCertificate, "stub") } }
package enum PropertyListReader { package static func parse(_ bytes: [UInt8]) throws -> (value: PlistValue, format: PlistFormat) { throw DecodeError(.malformedPlist, "stub") }; package static let maximumDepth = 128 }
